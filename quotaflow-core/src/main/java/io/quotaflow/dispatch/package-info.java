/**
 * The dispatcher of a quota scope (docs/design.md, "Package layout"): ledger, pending queue, tenant
 * shares and caps, the planner's pure decisions ({@code DispatchPlanner}, {@code DispatchStep}), the
 * call sender and the steps that change the ledger. It consults the rules of {@code failure},
 * {@code routing}, {@code deadline} and {@code quota}; none of those depends on it, and it does not
 * depend on {@code topology} or {@code metrics}.
 */
package io.quotaflow.dispatch;
