/**
 * Where one ticket stands and when it will be done (docs/design.md, "Ticket status"): the status
 * record the dispatcher keeps per ticket ({@link io.quotaflow.status.StatusStore}, outcomes kept for
 * {@code status.retention}), the measured pace of a scope ({@link io.quotaflow.status.Pace}), the
 * ETA arithmetic ({@link io.quotaflow.status.Eta}), the live queues the dispatchers publish
 * ({@link io.quotaflow.status.TicketDirectory}) and the answer of {@code GET /tickets/{id}}
 * ({@link io.quotaflow.status.TicketLocator}, forwarding with {@link io.quotaflow.status.TicketForwarder}).
 */
package io.quotaflow.status;
