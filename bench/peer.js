#!/usr/bin/env node
// The conventional peer: what a team would write first on this stack. NestJS
// on Express, @nestjs/passport with passport-http-bearer, and the project's
// own generated Prisma client over @prisma/adapter-pg, which reads the token
// with its identity in one findUnique. Framework defaults throughout, and no
// logging, metrics, rate limits or security headers. It serves GET of the
// current identity and GET roles with the service's bodies (the runner
// checks before it measures); only the happy paths the benchmark drives.
// Plain JavaScript, so the decorators are applied by calling them.
require('reflect-metadata');
const { createHash } = require('node:crypto');
const { Controller, Get, Injectable, Module, Req, UseGuards } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { AuthGuard, PassportModule, PassportStrategy } = require('@nestjs/passport');
const { PrismaPg } = require('@prisma/adapter-pg');
const { Strategy } = require('passport-http-bearer');
const { PrismaClient } = require('../dist/generated/prisma/client');

class Prisma extends PrismaClient {
  constructor() {
    // pg's default pool: 10 connections, as many as the service and the floor use.
    super({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL }) });
  }
}
Injectable()(Prisma);

class BearerStrategy extends PassportStrategy(Strategy) {
  constructor(prisma) {
    super({ passReqToCallback: true });
    this.prisma = prisma;
  }

  async validate(req, secret) {
    const tokenHash = createHash('sha256').update(secret).digest('hex');
    const token = await this.prisma.token.findUnique({ where: { tokenHash }, include: { identity: true } });
    const live = token && token.tenantId === req.params.tenant && !token.revokedAt && !(token.expiresAt && token.expiresAt <= new Date());
    return live && token.identity ? token : false;
  }
}
Injectable()(BearerStrategy);
Reflect.defineMetadata('design:paramtypes', [Prisma], BearerStrategy);

class IdentityController {
  constructor(prisma) {
    this.prisma = prisma;
  }

  current(req) {
    return identityBody(req.user.identity);
  }

  async roles(req) {
    const { tenantId, identityId } = req.user;
    const rows = await this.prisma.roleAssignment.findMany({ where: { tenantId, identityId }, select: { roleName: true }, orderBy: { roleName: 'asc' } });
    return rows.map((r) => ({ name: r.roleName }));
  }
}
Controller(':tenant/api/identity/v1')(IdentityController);
UseGuards(AuthGuard('bearer'))(IdentityController);
Reflect.defineMetadata('design:paramtypes', [Prisma], IdentityController);
for (const [method, path] of [['current'], ['roles', 'roles']]) {
  const proto = IdentityController.prototype;
  Get(path)(proto, method, Object.getOwnPropertyDescriptor(proto, method));
  Req()(proto, method, 0);
}

/** The service's representation: absent values and empty picture lists left out. */
const PICTURES = new Set(['smallPictures', 'mediumPictures', 'largePictures']);
function identityBody(i) {
  const body = {
    identityId: i.identityId, disabled: i.disabled, isArchived: i.isArchived,
    emailAddresses: i.emailAddresses, emailAddressVerified: i.emailAddressVerified,
    givenNames: i.givenNames, surnames: i.surnames, localities: i.localities,
    mobilePhoneVerified: i.mobilePhoneVerified, oldIdentityIds: i.oldIdentityIds, properties: i.properties,
    displayName: i.displayName, userName: i.userName, emailAddress: i.emailAddress, givenName: i.givenName,
    surname: i.surname, locality: i.locality, mobilePhone: i.mobilePhone, privatePersonalIdentifier: i.privatePersonalIdentifier,
    lastLogin: i.lastLogin?.toISOString().slice(0, 23),
    smallPictures: i.smallPictures, mediumPictures: i.mediumPictures, largePictures: i.largePictures,
    userNamePasswordAccountUserName: i.userNamePasswordAccountUserName,
  };
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => value != null && !(PICTURES.has(key) && value.length === 0)));
}

class PeerModule {}
Module({ imports: [PassportModule], controllers: [IdentityController], providers: [Prisma, BearerStrategy] })(PeerModule);

NestFactory.create(PeerModule).then((app) => app.listen(Number(process.env.PORT ?? 3103)));
