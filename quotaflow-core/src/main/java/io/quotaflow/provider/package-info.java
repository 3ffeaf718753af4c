/**
 * Whether a route can serve: its {@code RouteState}, the {@code RouteStateBoard} every instance
 * keeps, the provider check behind {@code quotaflow check} and {@code run}'s start
 * ({@code ProviderProbe}, {@code RouteCheck}, {@code StartCheck}), and {@code ObservedClient}. It
 * does not depend on the dispatcher or the topology.
 */
package io.quotaflow.provider;
