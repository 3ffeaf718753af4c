/**
 * Test support shared by every module's tests, the demo and the benchmark: the in-process broker,
 * the outcome counter, record schemas, Prometheus text checks, repository files. Depends on
 * {@code records} and the simulator, never on core, so core's tests can use it.
 */
package io.quotaflow.testkit;
