package io.quotaflow.topology;

import io.quotaflow.ticket.Ticket;
import io.quotaflow.ticket.WorkItem;

import java.nio.charset.StandardCharsets;

/** The content part of a ticket's cache key: SHA-256 of its normalised subject and body (trimmed, whitespace collapsed). */
final class ContentKeys {

    private ContentKeys() {
    }

    static String of(Ticket ticket) {
        String text = normalise(ticket.subject()) + "\n" + normalise(ticket.body());
        return WorkItem.sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    static String normalise(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s+", " ");
    }
}
