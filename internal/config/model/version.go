package model

// BehaviorSchemaVersion is the version of the behavior schema charter
// implements: the behavior framework's behavior_schema_version, and the
// only value an agent type's schema_version may have.
const BehaviorSchemaVersion = "1.0"
