import { Module } from '@nestjs/common';
import { AccountLinkController } from './account-link.controller';
import { AccountLinkRepository } from './account-link.repository';
import { AccountLinkService } from './account-link.service';
import { AccountsController } from './accounts.controller';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { LinkClient } from './link-client';
import { LinkTickets } from './link-tickets';

/** An identity's accounts: the lists, recording and removing them, and linking them through a browser. */
@Module({
  controllers: [AccountsController, AccountLinkController],
  providers: [
    AccountsService,
    AccountsRepository,
    AccountLinkService,
    AccountLinkRepository,
    LinkClient,
    LinkTickets,
  ],
  exports: [AccountsService],
})
export class AccountsModule {}
