/**
 * The instance's local state on disk: how much off-heap memory its RocksDB stores may take
 * together ({@link io.quotaflow.state.BoundedRocksDb}, docs/design.md, "Bounds").
 */
package io.quotaflow.state;
