/**
 * Whether a route can serve: its {@code RouteState}, the {@code RouteStateBoard} every instance
 * keeps (its one record of route health: what calls observed, and what owning dispatchers publish
 * for fallback choice), the provider check behind {@code quotaflow check} and {@code run}'s start
 * ({@code ProviderProbe}, {@code RouteCheck}, {@code StartCheck}), and {@code ObservedClient}. It
 * does not depend on the dispatcher or the topology.
 */
package io.quotaflow.provider;
