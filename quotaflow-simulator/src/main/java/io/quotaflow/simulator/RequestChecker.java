package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.tokens.TokenCounter.ChatMessage;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Checks a chat-completion body after authentication, in the order OpenAI reports the problems. */
final class RequestChecker {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RequestChecker() {
    }

    /** Checks {@code body} against the models served and the default {@code max_tokens}. */
    static RequestCheck check(byte[] body, SimulatorConfig config) {
        JsonNode request;
        try {
            request = MAPPER.readTree(body);
        } catch (IOException e) {
            return new RequestCheck.Invalid("We could not parse the JSON body of your request. (HINT: This likely means you "
                    + "aren't using your HTTP library correctly. The OpenAI API expects a JSON payload.)", null,
                    Optional.empty());
        }
        if (request == null || !request.isObject()) {
            return new RequestCheck.Invalid("The body must be a JSON object.", null, Optional.empty());
        }
        return checkFields(request, config);
    }

    private static RequestCheck checkFields(JsonNode request, SimulatorConfig config) {
        JsonNode model = request.get("model");
        if (model == null || !model.isTextual() || model.asText().isBlank()) {
            return new RequestCheck.Invalid("you must provide a model parameter", "model", Optional.empty());
        }
        String name = model.asText();
        if (config.servedModel(name).isEmpty()) {
            return new RequestCheck.UnknownModel(name);
        }
        List<ChatMessage> messages = messages(request.get("messages"));
        if (messages == null) {
            return new RequestCheck.Invalid("'messages' must be a non-empty array of objects with a string 'role' and a "
                    + "'content'.", "messages", Optional.of(name));
        }
        return withMaxTokens(request, name, messages, config);
    }

    /** {@code max_completion_tokens}, else {@code max_tokens}, else the configured default; an integer >= 1. */
    private static RequestCheck withMaxTokens(JsonNode request, String model, List<ChatMessage> messages,
                                              SimulatorConfig config) {
        boolean completionField = request.hasNonNull("max_completion_tokens");
        JsonNode maxNode = completionField ? request.get("max_completion_tokens") : request.get("max_tokens");
        if (maxNode == null || maxNode.isNull()) {
            return new RequestCheck.Valid(new ChatRequest(request, model, messages, config.defaultMaxTokens(), false));
        }
        if (maxNode.canConvertToInt() && maxNode.isIntegralNumber() && maxNode.intValue() >= 1) {
            return new RequestCheck.Valid(new ChatRequest(request, model, messages, maxNode.intValue(), true));
        }
        return new RequestCheck.Invalid("Invalid 'max_tokens': expected an integer >= 1, got " + maxNode + ".",
                completionField ? "max_completion_tokens" : "max_tokens", Optional.of(model));
    }

    /** Role/content pairs, or null when {@code node} is not a non-empty array of messages. */
    private static List<ChatMessage> messages(JsonNode node) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            return null;
        }
        List<ChatMessage> messages = new ArrayList<>(node.size());
        for (JsonNode message : node) {
            if (!message.isObject() || !message.path("role").isTextual()) {
                return null;
            }
            String text = content(message.get("content"));
            if (text == null) {
                return null;
            }
            messages.add(new ChatMessage(message.get("role").asText(), text));
        }
        return messages;
    }

    /** A message's text: a string, content parts joined ({@code [{"type":"text","text":"..."}]}), or null when neither. */
    private static String content(JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        if (!content.isArray()) {
            return null;
        }
        StringBuilder joined = new StringBuilder();
        for (JsonNode part : content) {
            if (part.path("text").isTextual()) {
                joined.append(part.path("text").asText());
            }
        }
        return joined.toString();
    }
}
