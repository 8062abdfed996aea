import { Injectable } from '@nestjs/common';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { AccountLinkRepository } from './account-link.repository';

/** What a link ticket says, once its signature and time are checked. */
export interface LinkTicket {
  identityId: string;
  /** Its SHA-256: the key that makes it single-use. */
  hash: string;
}

const b64 = (value: string) => Buffer.from(value).toString('base64url');
const TICKET =
  /^([A-Za-z0-9_-]{1,200})\.(\d{1,12})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * The tickets in the link URLs an identity's own accounts list gives
 * (docs/api.md, linking an account): who links (tenant, identity,
 * provider), signed with the database's link key. A ticket belongs to a
 * time window of LINK_TICKET_SECONDS and is accepted in it and the next
 * (so it lives one to two windows) and starts one link attempt only; the
 * time of the identity's latest start at the provider is part of it, so
 * that the next listing after a start gives a fresh one. Within a window, an unchanged
 * list keeps its URL, and its ETag.
 */
@Injectable()
export class LinkTickets {
  private key?: Promise<Buffer>;

  constructor(
    private readonly config: AppConfig,
    private readonly links: AccountLinkRepository,
  ) {}

  /** The URL a browser is sent to, to link an account of `providerId` to the identity. */
  async linkUrl(
    tenantId: string,
    identityId: string,
    providerId: string,
    lastStart: string,
    now = Date.now(),
  ): Promise<string> {
    const payload = `${b64(identityId)}.${this.window(now)}.${lastStart}`;
    const mac = await this.mac(tenantId, providerId, payload);
    return `${this.config.publicUrl}/${encodeURIComponent(tenantId)}/link/v1/${encodeURIComponent(providerId)}/start?ticket=${payload}.${mac}`;
  }

  /** The ticket's identity, or why it cannot start a link. */
  async read(
    tenantId: string,
    providerId: string,
    ticket: unknown,
    now = Date.now(),
  ): Promise<LinkTicket | 'invalid' | 'expired'> {
    const parts = typeof ticket === 'string' ? TICKET.exec(ticket) : null;
    if (!parts) return 'invalid';
    const [, who, window, lastStart, mac] = parts;
    const expected = Buffer.from(
      await this.mac(tenantId, providerId, `${who}.${window}.${lastStart}`),
    );
    if (!timingSafeEqual(expected, Buffer.from(mac))) return 'invalid';
    const age = this.window(now) - Number(window);
    if (age < 0 || age > 1) return 'expired';
    return {
      identityId: Buffer.from(who, 'base64url').toString('utf8'),
      hash: createHash('sha256')
        .update(ticket as string)
        .digest('base64url'),
    };
  }

  private window(now: number): number {
    return Math.floor(now / 1000 / this.config.linkTicketSeconds);
  }

  private async mac(tenantId: string, providerId: string, payload: string) {
    this.key ??= this.links.findLinkKey().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return createHmac('sha256', await this.key)
      .update(`${tenantId}\n${providerId}\n${payload}`)
      .digest('base64url');
  }
}
