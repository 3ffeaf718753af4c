/**
 * The pending queue of a scope's waiting tickets: {@code PendingQueue} per priority class, its tenant queues
 * ({@code ClassQueue}, {@code TenantQueue}), their serving order ({@code ServingOrder}, {@code Served}), depths
 * ({@code TenantDepths}), caps ({@code TenantCaps}), recent shares ({@code TokenShares}) and activity; the batch it
 * proposes ({@code PendingQueue.Proposal}) is a value the planner reads. Only the ledger changes it
 * ({@code DispatchLayersTest}); it depends on no other dispatch package.
 */
package io.quotaflow.dispatch.queue;
