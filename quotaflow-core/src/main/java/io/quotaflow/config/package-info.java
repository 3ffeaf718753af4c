/**
 * The configuration: the one key table ({@code ConfigKeys}), its sources (defaults, file,
 * {@code QUOTAFLOW_*} variables, flags) and their strict loader ({@code ConfigLoader}), the route and
 * tenant readers, and the assembled {@code QuotaflowConfig} (its {@code DispatcherSettings} in {@code settings}). It builds
 * settings records; it does not depend on the dispatcher, the topology, the LLM client or the metrics.
 */
package io.quotaflow.config;
