/**
 * A quota scope's ledger (docs/design.md, "Dispatcher"): {@code DispatchLedger} keeps the scope's stores, its pending
 * queue (package {@code dispatch.queue}), the spill beyond {@code queue.max-pending} ({@code Spill}), the retries held
 * for later ({@code DelayedRetries}), each ticket's status ({@code TicketStatuses}) and which class travels the
 * interactive lane ({@code Lanes}); {@code LedgerRestore}, {@code LedgerIntake} and {@code LedgerExits} are its
 * restore, its intake and the tickets leaving it unanswered. It knows no other dispatch package but the queue.
 */
package io.quotaflow.dispatch.ledger;
