/**
 * The classification cache and coalescing of one quota scope (docs/design.md, "Cache"): what makes
 * two tickets the same question ({@link io.quotaflow.cache.ContentKey}), the answers kept for
 * {@code cache.ttl} ({@link io.quotaflow.cache.ResultCache}), and identical tickets waiting on one
 * call ({@link io.quotaflow.cache.Coalescer}, deciding by {@code CoalescingRules}). Plain classes
 * over the dispatcher's changelogged stores ({@link io.quotaflow.cache.CacheStores}): the topology
 * applies their decisions.
 */
package io.quotaflow.cache;
