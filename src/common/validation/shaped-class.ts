/**
 * A base class whose instances have the properties `Shape`, for a class
 * whose decorators are applied in a loop from a table (the identity field
 * table): the class declares its shape once, through its base, and the
 * loop decorates the prototype. Nothing is initialized: the instances are
 * what class-transformer or a decorator-reading library makes of them.
 */
export function shapedClass<Shape extends object>(): new () => Shape {
  return class {} as new () => Shape;
}
