package io.quotaflow.llm;

import java.util.List;

/**
 * One chat-completions call classifying a batch.
 *
 * @param batchId   unique id of the batch (for logs and the in-flight store)
 * @param prompt    the prompt, built once so the admitted token count is the one sent
 */
public record ModelRequest(String batchId, ChatPrompt prompt) {

    public List<ModelItem> items() {
        return prompt.items();
    }

    @Override
    public String toString() {
        return "ModelRequest[" + batchId + ", ids=" + items().stream().map(ModelItem::id).toList()
                + ", promptTokens=" + prompt.promptTokens() + ", maxTokens=" + prompt.maxTokens() + "]";
    }
}
