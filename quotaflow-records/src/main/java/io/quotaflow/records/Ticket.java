package io.quotaflow.records;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Objects;
import java.util.Optional;

/**
 * A support ticket as producers write it. {@code json} is the whole parsed document, unknown fields
 * included, so nothing a producer sent is lost.
 *
 * @param id        the ticket id (also the record key)
 * @param subject   the subject line, may be null when {@code body} is present
 * @param body      the text, may be null when {@code subject} is present
 * @param tenant    the customer, {@code "default"} when absent
 * @param priority  the priority the producer asked for, if any
 * @param json      the full document
 */
public record Ticket(String id, String subject, String body, String tenant, Optional<Priority> priority, ObjectNode json) {

    public static final String DEFAULT_TENANT = "default";

    public Ticket {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(json, "json");
        tenant = tenant == null || tenant.isBlank() ? DEFAULT_TENANT : tenant;
        priority = priority == null ? Optional.empty() : priority;
    }
}
