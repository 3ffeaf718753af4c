package io.quotaflow.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The assistant's message for an admitted request: {@code {"results":[{"id","category","urgency"}]}}
 * for the prompt's tickets, labelled by the {@link KeywordClassifier} from the closed sets the
 * request's {@code response_format} names (or a fixed label when classification is off), damaged
 * as a drawn fault asks, and cut at {@code max_tokens} with {@code finish_reason=length}.
 */
final class AnswerBuilder {

    /** The message content, its length in the simulator's tokens, and why it ended. */
    record Answer(String content, int completionTokens, String finishReason) {
    }

    private final ObjectMapper mapper = new ObjectMapper();
    private final KeywordClassifier classifier = new KeywordClassifier();
    private final SimTokenizer.Counter tokenCounter;
    private final boolean classify;
    private final Random random;

    /**
     * @param random the simulator's seeded source: draws which item a missing-item fault drops
     */
    AnswerBuilder(SimTokenizer.Counter tokenCounter, boolean classify, Random random) {
        this.tokenCounter = tokenCounter;
        this.classify = classify;
        this.random = random;
    }

    Answer answer(ChatRequest request, int maxTokens, Fault fault) throws JsonProcessingException {
        JsonNode itemProperties = request.json().path("response_format").path("json_schema").path("schema")
                .path("properties").path("results").path("items").path("properties");
        List<String> categories = enumValues(itemProperties.path("category").path("enum"));
        List<String> urgencies = enumValues(itemProperties.path("urgency").path("enum"));

        ObjectNode document = mapper.createObjectNode();
        ArrayNode results = document.putArray("results");
        for (PromptTickets.Ticket ticket : PromptTickets.of(request.lastUserContent())) {
            if (!classify) {
                results.addObject().put("id", ticket.id()).put("category", categories.isEmpty() ? "other" : categories.get(0))
                        .put("urgency", urgencies.isEmpty() ? "low" : urgencies.get(0));
                continue;
            }
            KeywordClassifier.Result result = classifier.classify(ticket.subject(), ticket.body(), categories, urgencies);
            results.addObject().put("id", ticket.id()).put("category", result.category()).put("urgency", result.urgency());
        }
        if (fault == Fault.MISSING_ITEM && !results.isEmpty()) {
            results.remove(random.nextInt(results.size()));
        }
        String content = mapper.writeValueAsString(document);
        if (fault == Fault.MALFORMED) {
            // cut in the middle, unbalanced braces, yet finish_reason=stop: a malformed answer, not one cut at max_tokens
            content = content.substring(0, Math.max(1, content.length() / 2));
        }
        int tokens = tokenCounter.count(content);
        if (tokens <= maxTokens) {
            return new Answer(content, tokens, "stop");
        }
        return new Answer(truncate(content, maxTokens), maxTokens, "length");
    }

    private static List<String> enumValues(JsonNode node) {
        List<String> values = new ArrayList<>();
        if (node.isArray()) {
            for (JsonNode value : node) {
                if (value.isTextual()) {
                    values.add(value.asText());
                }
            }
        }
        return values;
    }

    /** The longest prefix of {@code content} that is at most {@code maxTokens} tokens. */
    private String truncate(String content, int maxTokens) {
        int lo = 0;
        int hi = content.length();
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (tokenCounter.count(content.substring(0, mid)) <= maxTokens) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        if (lo > 0 && Character.isHighSurrogate(content.charAt(lo - 1))) {
            lo--;
        }
        return content.substring(0, lo);
    }
}
