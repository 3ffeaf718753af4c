package io.quotaflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Json;
import io.quotaflow.ticket.WorkItem;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** One ticket as the model sees it. */
public record ModelItem(String id, String subject, String body) {

    public ModelItem {
        Objects.requireNonNull(id, "id");
    }

    /**
     * The model's view of a held ticket: its id, subject and body, read from its bytes (validated
     * strictly at intake, so read leniently here).
     */
    public static ModelItem ofTicketJson(WorkItem item) {
        try {
            JsonNode json = Json.MAPPER.readTree(item.original());
            return new ModelItem(item.key(), text(json.get("subject")), text(json.get("body")));
        } catch (IOException e) {
            // validated at intake; unreachable unless the bytes were altered
            return new ModelItem(item.key(), null, new String(item.original(), StandardCharsets.UTF_8));
        }
    }

    private static String text(JsonNode node) {
        return node == null || !node.isTextual() ? null : node.asText();
    }
}
