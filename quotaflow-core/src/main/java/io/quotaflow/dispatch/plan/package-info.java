/**
 * The planner: {@code DispatchPlanner} decides each step of a scope's dispatch loop ({@code DispatchStep}) from a
 * value read first ({@code DispatchView}), with no ledger, no clock and no Kafka ({@code DispatchLayersTest});
 * {@code ProviderModel} is what is known of the provider (limiter, calibration, context window, completion budget,
 * in-flight limit), {@code BatchLimiter} a batch route's limits, {@code DeadlineSweep} the tickets that will miss
 * their deadline.
 */
package io.quotaflow.dispatch.plan;
