import { Injectable } from '@nestjs/common';
import { RouteNotFound } from '../common/errors';
import { listResponse, ScimList } from './scim-list';
import { RESOURCE_TYPES, SCHEMAS } from './scim-schemas';

/** The most resources one query answers; `count` is capped to it. */
export const MAX_RESULTS = 200;

const CONFIG_SCHEMA =
  'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA =
  'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

type Document = Record<string, unknown>;

/**
 * The discovery documents of RFC 7644 §4: what this service provider
 * supports, its resource types and their schemas, each with the meta of
 * RFC 7643 (its resource type and its absolute location).
 */
@Injectable()
export class ScimDiscoveryService {
  serviceProviderConfig(base: string): Document {
    return {
      schemas: [CONFIG_SCHEMA],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: MAX_RESULTS },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'OAuth Bearer Token',
          description:
            'An app token of the tenant with the scim:provision scope, in the Authorization header.',
          primary: true,
        },
      ],
      meta: {
        resourceType: 'ServiceProviderConfig',
        location: `${base}/ServiceProviderConfig`,
      },
    };
  }

  resourceTypes(base: string): ScimList<Document> {
    return listResponse(RESOURCE_TYPES.map((t) => resourceType(base, t.id)));
  }

  resourceType(base: string, id: string): Document {
    return resourceType(base, id);
  }

  schemas(base: string): ScimList<Document> {
    return listResponse(SCHEMAS.map((s) => schema(base, s.id)));
  }

  schema(base: string, id: string): Document {
    return schema(base, id);
  }
}

function resourceType(base: string, id: string): Document {
  const type = RESOURCE_TYPES.find((t) => t.id === id);
  if (!type) throw new RouteNotFound(`${base}/ResourceTypes/${id}`);
  return {
    schemas: [RESOURCE_TYPE_SCHEMA],
    ...type,
    meta: {
      resourceType: 'ResourceType',
      location: `${base}/ResourceTypes/${type.id}`,
    },
  };
}

function schema(base: string, id: string): Document {
  const found = SCHEMAS.find((s) => s.id === id);
  if (!found) throw new RouteNotFound(`${base}/Schemas/${id}`);
  return {
    schemas: [SCHEMA_SCHEMA],
    ...found,
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${found.id}` },
  };
}
