package io.quotaflow.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The tickets a prompt carries in its last user message. */
final class PromptTickets {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern ID_FALLBACK = Pattern.compile("\"id\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One ticket of the prompt; subject and body may be null. */
    record Ticket(String id, String subject, String body) {
    }

    private PromptTickets() {
    }

    /**
     * The tickets of the user message: {@code {"tickets":[{"id","subject","body"}...]}}, or, when
     * the content is not that, every {@code "id": "..."} found in it with the text up to the next
     * id as its body.
     */
    static List<Ticket> of(String content) {
        List<Ticket> tickets = new ArrayList<>();
        try {
            JsonNode doc = MAPPER.readTree(content);
            if (doc != null && doc.path("tickets").isArray()) {
                for (JsonNode t : doc.get("tickets")) {
                    JsonNode id = t.get("id");
                    if (id == null || !(id.isTextual() || id.isNumber())) {
                        continue;
                    }
                    tickets.add(new Ticket(id.asText(), textOrNull(t.get("subject")), textOrNull(t.get("body"))));
                }
                return tickets;
            }
        } catch (JsonProcessingException notJson) {
            // fall through to the regex
        }
        Matcher m = ID_FALLBACK.matcher(content);
        List<int[]> spans = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            spans.add(new int[] {m.start(), m.end()});
            ids.add(unescape(m.group(1)));
        }
        for (int i = 0; i < ids.size(); i++) {
            int end = i + 1 < spans.size() ? spans.get(i + 1)[0] : content.length();
            tickets.add(new Ticket(ids.get(i), null, content.substring(spans.get(i)[1], end)));
        }
        return tickets;
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    private static String unescape(String jsonStringBody) {
        try {
            return MAPPER.readValue("\"" + jsonStringBody + "\"", String.class);
        } catch (JsonProcessingException e) {
            return jsonStringBody;
        }
    }
}
