/**
 * The benchmark (docs/benchmark.md): scenarios, their runners and their result tables, run
 * against the provider simulator and an in-process broker. Developer distribution only: the
 * production jar does not carry it, and no production package depends on it.
 */
package io.quotaflow.bench;
