package io.quotaflow.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;

import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Objects;

/**
 * One ticket made by {@link TicketGenerator}, with the label it was written to have. The label is
 * kept aside: {@link #toJson()} is the ticket as a producer would send it, without the label.
 *
 * @param id          ticket id
 * @param tenant      customer
 * @param priority    priority class (the JSON's {@code priority} field, so the publisher routes it)
 * @param language    {@code en} or {@code pt}
 * @param subject     subject line; null for a body-only ticket
 * @param body        the text
 * @param submittedAt when the customer wrote it
 * @param channel     where it came from ({@code chat}, {@code email}, {@code web}, {@code import})
 * @param label       the intended classification
 */
public record GeneratedTicket(String id, String tenant, Priority priority, String language, String subject, String body,
                              Instant submittedAt, String channel, Label label) {

    /** The classification a ticket was written to have. */
    public record Label(String category, String urgency) {
        public Label {
            Objects.requireNonNull(category, "category");
            Objects.requireNonNull(urgency, "urgency");
        }
    }

    public GeneratedTicket {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(submittedAt, "submittedAt");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(label, "label");
    }

    /** Whether the body is one of the long tail ({@link TicketGenerator#LONG_MIN_CHARS} characters or more). */
    public boolean isLong() {
        return body.length() >= TicketGenerator.LONG_MIN_CHARS;
    }

    /** Whether the body is huge ({@link TicketGenerator#HUGE_MIN_CHARS} characters or more; also {@link #isLong()}). */
    public boolean isHuge() {
        return body.length() >= TicketGenerator.HUGE_MIN_CHARS;
    }

    /** Characters of the ticket's text: subject (when present) and body. */
    public int textLength() {
        return (subject == null ? 0 : subject.length()) + body.length();
    }

    /**
     * The ticket JSON (one line, no label): {@code id}, {@code subject}, {@code body}, {@code tenant},
     * {@code priority}, {@code submittedAt}, {@code metadata {channel, locale, source}}.
     */
    public String toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("id", id);
        if (subject != null) {
            node.put("subject", subject);
        }
        node.put("body", body);
        node.put("tenant", tenant);
        node.put("priority", priority.wireName());
        node.put("submittedAt", submittedAt.toString());
        ObjectNode metadata = node.putObject("metadata");
        metadata.put("channel", channel);
        metadata.put("locale", language.equals("pt") ? "pt-BR" : "en-US");
        metadata.put("source", "quotaflow-bench");
        try {
            return Json.MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
