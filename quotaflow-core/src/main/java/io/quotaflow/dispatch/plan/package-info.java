/**
 * The planner: {@code DispatchPlanner} decides each step of a scope's dispatch loop ({@code DispatchStep}) from a
 * value read first ({@code DispatchView}), and {@code DeadlineSweep} the tickets that will miss their deadline; the
 * whole package depends on no ledger, no provider model, no clock and no Kafka ({@code DispatchLayersTest}).
 */
package io.quotaflow.dispatch.plan;
