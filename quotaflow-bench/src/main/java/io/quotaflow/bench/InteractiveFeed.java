package io.quotaflow.bench;

import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Priority;

import java.io.ByteArrayInputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * (j) The interactive tickets, published one at a time into the bulk backlog: the first once a
 * result has been seen ((t): once its share of the backlog is classified), then one every
 * {@link Scenario#INTERACTIVE_SPACING_MS}.
 */
final class InteractiveFeed {
    private final List<GeneratedTicket> tickets;
    private final TicketPublisher publisher;
    private final Map<String, Long> publishedAt = new LinkedHashMap<>();
    private long nextAt = Long.MAX_VALUE;
    private int published;

    InteractiveFeed(List<GeneratedTicket> tickets, TicketPublisher publisher) {
        this.tickets = tickets;
        this.publisher = publisher;
    }

    /** Publishes the next ticket when it is due; returns whether it did. */
    boolean publishIfDue(long now, boolean resultSeen) {
        if (published >= tickets.size()) {
            return false;
        }
        if (nextAt == Long.MAX_VALUE && resultSeen) {
            nextAt = now;
        }
        if (now < nextAt) {
            return false;
        }
        GeneratedTicket t = tickets.get(published++);
        publishedAt.put(t.id(), System.currentTimeMillis());
        publish(publisher, List.of(t), Optional.of(Priority.INTERACTIVE));
        nextAt += Scenario.INTERACTIVE_SPACING_MS;
        return true;
    }

    /** What the phase line says about the feed: nothing when there are no interactive tickets. */
    static String describe(List<GeneratedTicket> tickets, double from) {
        String start = from > 0 ? String.format(Locale.ROOT, "follow %.0f %% of the backlog's results", from * 100) : "follow the first result";
        return tickets.isEmpty() ? "" : "; " + tickets.size() + " interactive tickets " + start + ", one every "
                + Scenario.INTERACTIVE_SPACING_MS + " ms";
    }

    /** When each ticket's publish started, by id. */
    Map<String, Long> publishedAt() {
        return publishedAt;
    }

    /** Publishes {@code tickets} (at {@code priority}, else each ticket's own); throws unless every one is acknowledged. */
    static void publish(TicketPublisher publisher, List<GeneratedTicket> tickets, Optional<Priority> priority) {
        PublishSummary summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(tickets)), priority, false,
                p -> { }, issue -> { });
        if (!summary.succeeded() || summary.acknowledged() != tickets.size()) {
            throw new IllegalStateException("publishing failed: " + summary.describe());
        }
    }
}
