/**
 * The immutable settings records every layer reads: model, quota, batch, retry, daily limits,
 * prices, tenants, topic names, record limits, the secret and its redactor. The lowest package of core
 * beside {@code ticket}: it depends on {@code records} and {@code wire} only.
 */
package io.quotaflow.settings;
