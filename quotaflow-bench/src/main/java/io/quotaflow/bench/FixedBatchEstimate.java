package io.quotaflow.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.simulator.KeywordClassifier;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.llm.ChatPrompt;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.tokens.TokenCounter;
import io.quotaflow.records.Priority;

import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Tokens per ticket if the same tickets went out in fixed batches of {@code n}, computed without
 * a broker or a provider: the tickets of each priority class (calls never mix classes) in
 * generation order, cut into chunks of {@code n}; each chunk is built into the very request the
 * pipeline would send ({@link PromptBuilder}, {@code max_tokens} = {@link BatchSettings#maxTokensFor}
 * of the default batch settings), its prompt counted as the provider counts it, and its completion
 * taken as the answer the simulator would give (its keyword classifier's JSON, counted with the
 * same tokenizer, capped at {@code max_tokens}).
 *
 * <p>This is the baseline "tokens per ticket no worse than with fixed batches of ten": with no
 * queueing effects at all, every call but the last of each class is full.
 */
public final class FixedBatchEstimate {

    private FixedBatchEstimate() {
    }

    /** The computed figures. */
    public record Figures(long calls, long promptTokens, long completionTokens, long tokensAdmitted) {
    }

    public static Figures compute(List<GeneratedTicket> tickets, int batchItems) {
        return compute(tickets, batchItems, BatchSettings.ofDefaults(), SimulatorConfig.DEFAULT_MODEL);
    }

    public static Figures compute(List<GeneratedTicket> tickets, int batchItems, BatchSettings batch, String model) {
        if (batchItems < 1) {
            throw new IllegalArgumentException("batchItems must be >= 1");
        }
        ModelSettings settings = ModelSettings.of(URI.create("http://localhost/v1"), model, Secret.of("estimate-only"));
        PromptBuilder prompts = new PromptBuilder(settings);
        TokenCounter counter = TokenCounter.forModel(model);
        KeywordClassifier classifier = new KeywordClassifier();
        ObjectMapper mapper = new ObjectMapper();
        long calls = 0;
        long prompt = 0;
        long completion = 0;
        long admitted = 0;
        for (Priority p : Priority.values()) {
            List<GeneratedTicket> ofClass = tickets.stream().filter(t -> t.priority() == p).toList();
            for (int from = 0; from < ofClass.size(); from += batchItems) {
                List<GeneratedTicket> chunk = ofClass.subList(from, Math.min(ofClass.size(), from + batchItems));
                List<ModelItem> items = new ArrayList<>(chunk.size());
                for (GeneratedTicket t : chunk) {
                    items.add(new ModelItem(t.id(), t.subject(), t.body()));
                }
                int maxTokens = batch.maxTokensFor(chunk.size());
                ChatPrompt request = prompts.build(items, maxTokens);
                ObjectNode answer = mapper.createObjectNode();
                ArrayNode results = answer.putArray("results");
                for (int i = 0; i < chunk.size(); i++) {
                    // the simulator answers with the request's ids (short ones with the lean prompt)
                    GeneratedTicket t = chunk.get(i);
                    KeywordClassifier.Result r = classifier.classify(t.subject(), t.body(), settings.categories(), settings.urgencies());
                    results.addObject().put("id", request.wireIds().get(i)).put("category", r.category()).put("urgency", r.urgency());
                }
                int answerTokens;
                try {
                    answerTokens = Math.min(maxTokens, counter.count(mapper.writeValueAsString(answer)));
                } catch (JsonProcessingException e) {
                    throw new UncheckedIOException(e);
                }
                calls++;
                prompt += request.promptTokens();
                completion += answerTokens;
                admitted += request.admissionCost();
            }
        }
        return new Figures(calls, prompt, completion, admitted);
    }

    /** An estimate-only scenario's result: computed, not run. */
    static ScenarioResult result(Scenario scenario, List<GeneratedTicket> tickets) {
        Figures f = compute(tickets, Scenario.FIXED_BATCH_ITEMS);
        long n = tickets.size();
        return new ScenarioResult(scenario.key(), scenario.name(), scenario.description(), true, 0, scenario.rpm(), scenario.tpm(),
                scenario.simBurstSeconds(), scenario.binding(), n, null, null, null, null, f.calls(), null, f.calls(),
                f.promptTokens(), f.completionTokens(), f.tokensAdmitted(), null, null, null, null, null,
                f.tokensAdmitted() / (double) n, (f.promptTokens() + f.completionTokens()) / (double) n,
                n / (double) f.calls(),
                List.of("computed, not run: each priority class cut into chunks of " + Scenario.FIXED_BATCH_ITEMS
                        + " in arrival order; prompt counted as the provider counts it; max_tokens = "
                        + BatchSettings.ofDefaults().maxTokensFor(Scenario.FIXED_BATCH_ITEMS) + " per full call; completion = the simulator's answer"));
    }
}
