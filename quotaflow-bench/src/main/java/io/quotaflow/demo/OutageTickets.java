package io.quotaflow.demo;

import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.OutcomeCounter;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;

/**
 * The tickets the outage scenario publishes while the route is down (interactive ones handed off, repeats
 * answered stale from the cache) and the count of stale answers it reports.
 */
final class OutageTickets {

    private OutageTickets() {
    }

    /**
     * Sends {@link DemoRun#OUTAGE_REPEATS} tickets again under new ids ({@code R-<id>}, same tenant and text), of those
     * already classified: while the route is down their expired cache entries answer them, marked stale.
     */
    static long publishRepeats(EmbeddedKafkaBroker broker, byte[] lines, java.util.Set<String> classified, PrintStream log) {
        StringBuilder repeats = new StringBuilder();
        int n = 0;
        for (String line : new String(lines, java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            if (n >= DemoRun.OUTAGE_REPEATS || line.isBlank()) {
                continue;
            }
            try {
                com.fasterxml.jackson.databind.node.ObjectNode t = (com.fasterxml.jackson.databind.node.ObjectNode)
                        io.quotaflow.records.Json.MAPPER.readTree(line);
                String key = io.quotaflow.records.TicketKey.key(t.path("tenant").asText(io.quotaflow.records.Ticket.DEFAULT_TENANT),
                        t.path("id").asText());
                if (classified.contains(key) && !"interactive".equals(t.path("priority").asText())) {
                    t.put("id", "R-" + t.path("id").asText());
                    t.put("priority", "standard");
                    repeats.append(io.quotaflow.records.Json.MAPPER.writeValueAsString(t)).append('\n');
                    n++;
                }
            } catch (IOException | ClassCastException e) {
                // a malformed line of the dataset (sent on purpose): not repeated
            }
        }
        long sent = publish(broker, repeats.toString());
        log.printf("%n>>> the route is down; %d tickets classified before are sent again (new ids, same text): their expired"
                + " cache entries answer them, marked stale%n", sent);
        return sent;
    }

    /**
     * The keys of the dataset's interactive tickets: the outage begins once each is accounted for, so that the only
     * tickets handed off are those that arrive while the route is down.
     */
    static java.util.Set<String> interactiveKeys(byte[] lines) {
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (String line : new String(lines, java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            if (!line.contains("interactive")) {
                continue;
            }
            try {
                com.fasterxml.jackson.databind.JsonNode t = io.quotaflow.records.Json.MAPPER.readTree(line);
                if ("interactive".equals(t.path("priority").asText())) {
                    keys.add(io.quotaflow.records.TicketKey.key(t.path("tenant").asText(io.quotaflow.records.Ticket.DEFAULT_TENANT),
                            t.path("id").asText()));
                }
            } catch (IOException e) {
                // a malformed line of the dataset (sent on purpose): refused at intake, never classified
            }
        }
        return keys;
    }

    /**
     * Publishes {@link DemoRun#OUTAGE_INTERACTIVE} interactive tickets of the dataset under new ids ({@code O-<id>}) and
     * with new text (no cache entry answers them): arriving while the route is down, they are handed off before
     * their {@link DemoRun#OUTAGE_DEADLINE}.
     */
    static long publishInteractive(EmbeddedKafkaBroker broker, byte[] lines, PrintStream log) {
        StringBuilder arriving = new StringBuilder();
        int n = 0;
        for (String line : new String(lines, java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            if (n < DemoRun.OUTAGE_INTERACTIVE && line.contains("interactive")) {
                try {
                    com.fasterxml.jackson.databind.node.ObjectNode t = (com.fasterxml.jackson.databind.node.ObjectNode)
                            io.quotaflow.records.Json.MAPPER.readTree(line);
                    if (!"interactive".equals(t.path("priority").asText())) {
                        continue;
                    }
                    t.put("id", "O-" + t.path("id").asText());
                    t.put("body", t.path("body").asText() + " (Sent again: still waiting.)");
                    arriving.append(io.quotaflow.records.Json.MAPPER.writeValueAsString(t)).append('\n');
                    n++;
                } catch (IOException | ClassCastException e) {
                    // a malformed line of the dataset (sent on purpose): not sent again
                }
            }
        }
        long sent = publish(broker, arriving.toString());
        log.printf(">>> %d interactive tickets arrive during the outage%n", sent);
        return sent;
    }

    /** Publishes {@code jsonl} (one ticket a line) and returns how many the broker acknowledged. */
    static long publish(EmbeddedKafkaBroker broker, String jsonl) {
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
            return publisher.publish(new ByteArrayInputStream(jsonl.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                    Optional.empty(), false, p -> { }, issue -> { }).acknowledged();
        }
    }

    /** Results answered from an expired cache entry ({@code "stale": true}). */
    static long staleAnswers(OutcomeCounter counter) {
        return counter.results().values().stream().filter(v -> {
            try {
                return io.quotaflow.records.Json.MAPPER.readTree(v).path("stale").asBoolean(false);
            } catch (IOException e) {
                return false;
            }
        }).count();
    }
}
