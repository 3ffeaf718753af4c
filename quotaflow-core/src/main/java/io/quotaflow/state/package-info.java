/**
 * The instance's local state: how much off-heap memory its RocksDB stores may take together, and
 * how much disk each may hold beyond its live data ({@link io.quotaflow.state.BoundedRocksDb},
 * docs/design.md, "Bounds").
 */
package io.quotaflow.state;
