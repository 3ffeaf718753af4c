/**
 * The immutable settings records every layer reads: model, quota, batch, retry, daily limits,
 * prices, tenants, topic names, record limits, routes, deadlines, the secret and its redactor, and
 * {@code DispatcherSettings}, everything the topology is configured with as one value (runtime collaborators such
 * as the tracing are passed beside it, not in it). The lowest package of core beside {@code ticket}: it depends on
 * {@code records}, {@code tokens} and {@code duration} only.
 */
package io.quotaflow.settings;
