import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import {
  DiscoveryModule,
  DiscoveryService,
  MetadataScanner,
} from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { ACCESS_RULE } from '../src/common/http/access.decorator';
import { AppModule } from '../src/app.module';
import { API_PREFIX, RouteTable } from '../src/common/http/route-table';
import { RESERVED_IDENTITY_IDS } from '../src/common/validation/field-rules';
import { createTestDatabase } from './support/test-database';

// Every route must say who may call it; a new route that forgets fails here.
describe('routes', () => {
  it('each declare an access rule', async () => {
    const db = await createTestDatabase();
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRoot(db.config), DiscoveryModule],
    }).compile();
    try {
      const scanner = moduleRef.get(MetadataScanner);
      const routes = moduleRef
        .get(DiscoveryService)
        .getControllers()
        .flatMap((wrapper) => {
          const metatype = wrapper.metatype as { prototype: object };
          const proto = metatype.prototype;
          return scanner
            .getAllMethodNames(proto)
            .map((name) => (proto as Record<string, unknown>)[name] as object)
            .filter(
              (handler) =>
                Reflect.getMetadata(PATH_METADATA, handler) !== undefined,
            )
            .map((handler) => ({
              route: `${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler)]} ${Reflect.getMetadata(PATH_METADATA, metatype)}/${Reflect.getMetadata(PATH_METADATA, handler)}`,
              rule: Reflect.getMetadata(ACCESS_RULE, handler),
            }));
        });
      expect(routes.length).toBeGreaterThanOrEqual(8);
      expect(routes.filter((r) => r.rule === undefined)).toStrictEqual([]);
    } finally {
      await moduleRef.close();
      await db.drop();
    }
  });

  it('never take a fixed segment under {id} that an identity could be called', async () => {
    const db = await createTestDatabase();
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRoot(db.config)],
    }).compile();
    try {
      const prefix = `/${API_PREFIX}/`;
      const fixed = moduleRef
        .get(RouteTable)
        .routes.map((r) => r.template)
        .filter((template) => template.startsWith(prefix))
        .map((template) => template.slice(prefix.length).split('/')[0])
        .filter((segment) => !segment.startsWith(':'));
      expect(new Set(fixed)).toStrictEqual(new Set(RESERVED_IDENTITY_IDS));
    } finally {
      await moduleRef.close();
      await db.drop();
    }
  });
});
