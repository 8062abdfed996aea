import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Adds a part to the OpenAPI document that routes do not describe. */
export type OpenApiSection = (document: OpenAPIObject) => OpenAPIObject;

/**
 * The parts feature modules add to the OpenAPI document beyond their
 * routes (the webhooks' `webhooks` section): they register here, so the
 * document's builder depends on no feature.
 */
@Injectable()
export class OpenApiSections {
  private readonly sections: OpenApiSection[] = [];

  add(section: OpenApiSection): void {
    this.sections.push(section);
  }

  apply(document: OpenAPIObject): OpenAPIObject {
    return this.sections.reduce((doc, section) => section(doc), document);
  }
}
