export const SCHEMA_VERSION = 1;
