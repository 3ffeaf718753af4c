package io.quotaflow.dispatch.ledger;

import io.quotaflow.ticket.WorkItem;

/**
 * A retry on its way through {@code tickets.retry}, as the dispatcher remembers it until the record
 * comes back: which copy it is, and whether a newer copy of the ticket arrived meanwhile (then the
 * returning record is stale and is dropped), and when the publication it is was made.
 */
public record RetryMarker(WorkItem.Origin origin, String sha256, boolean superseded, long publishedAt) {

    static RetryMarker of(WorkItem item) {
        return new RetryMarker(item.origin(), item.originalSha256(), false, item.publishedAt());
    }

    boolean matches(WorkItem item) {
        return origin.equals(item.origin()) && sha256.equals(item.originalSha256());
    }

    RetryMarker supersede() {
        return new RetryMarker(origin, sha256, true, publishedAt);
    }
}
