/**
 * An RFC 3339 date-time with its offset. Apart from the rules that use it,
 * which load the validator: the command line checks it before loading any.
 */
export const DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
