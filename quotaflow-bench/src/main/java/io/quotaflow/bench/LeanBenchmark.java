package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.llm.ChatPrompt;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.llm.OpenAiChatClient;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.llm.PromptLevers;
import io.quotaflow.llm.TicketTail;
import io.quotaflow.records.Json;
import io.quotaflow.records.TicketKey;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.DemoDataset;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Bench {@code lean}: tokens per classified ticket and accuracy on labelled tickets for each lever of
 * a lean prompt (docs/design.md, "Lean prompts"), the levers added one at a time to the request of
 * prompt version 1, all in the same run. Two labelled sets: the bench generator's tickets and the
 * demo's. Each step classifies the whole set against a fresh in-process provider simulator (its
 * keyword classifier and its tokenizer, no rate limits, no latency), in calls of
 * {@link BatchSettings#maxItems()} tickets, with the dispatcher's handling of an answer: a call cut at
 * {@code max_tokens} ({@code finish_reason=length}) is asked again with a doubled budget, and its
 * complete answer teaches the budget; a ticket answered invalidly is asked again alone.
 *
 * <p>Tokens per ticket are per classified ticket: <em>admitted</em> is what a TPM limit counts (the
 * provider's prompt count plus {@code max_tokens}), <em>used</em> is prompt plus completion tokens.
 * Accuracy is the share of tickets whose label matches the one the ticket was written to have;
 * against the baseline step, <em>lost</em> counts the tickets a step answers wrongly that the
 * baseline answered rightly, and <em>won</em> the other way round, per label: a lever that leaves out
 * what carried a label shows as a loss there. The simulator does not read the
 * system prompt and classifies each ticket on its own: the system prompt's and the batch size's
 * effect on a real model's accuracy are not measured here.
 */
public final class LeanBenchmark {

    public static final String NAME = "lean";
    public static final int DEFAULT_TICKETS = 5_000;
    private static final String API_KEY = "sk-lean-bench";
    /** Tries for a ticket answered invalidly or a failed call before it counts as unclassified. */
    private static final int TRIES = 3;

    /**
     * One step: the levers pulled so far.
     *
     * @param tightBudget {@code max_tokens} by {@link io.quotaflow.quota.CompletionBudget} (else by {@link LeanBudget.Legacy})
     */
    record Step(String name, PromptLevers levers, boolean tightBudget) {
    }

    static final List<Step> STEPS = steps();

    private static List<Step> steps() {
        List<Step> steps = new ArrayList<>(List.of(
                new Step("baseline (prompt v1)", PromptLevers.FULL, false),
                new Step("+ short ids", PromptLevers.FULL.withShortIds(true), false),
                new Step("+ short system prompt", PromptLevers.FULL.withShortIds(true).withCompactSystem(true), false)));
        PromptLevers levers = PromptLevers.LEAN.withTailCuts(Set.of());
        steps.add(new Step("+ lean text", levers, false));
        EnumSet<TicketTail.Cut> cuts = EnumSet.noneOf(TicketTail.Cut.class);
        for (TicketTail.Cut cut : TicketTail.Cut.values()) {
            cuts.add(cut);
            steps.add(new Step("+ cut " + cut.name().toLowerCase(Locale.ROOT), levers.withTailCuts(cuts), false));
        }
        steps.add(new Step("+ tight max_tokens (pipeline)", PromptLevers.LEAN, true));
        return List.copyOf(steps);
    }

    /** Tickets of the real-shaped set ({@link RealShapes}). */
    static final int REAL_SHAPED_TICKETS = 500;

    /** A ticket and the label it was written to have. */
    record Labelled(String key, String subject, String body, String category, String urgency) {
    }

    /** What one step came to on one set. */
    record Row(String set, String step, int tickets, long calls, long cutCalls, long promptTokens, long completionTokens,
               long admittedTokens, long maxTokens, int classified, int categoryRight, int urgencyRight, Changes changes) {

        double perTicket(long tokens) {
            return classified == 0 ? 0 : (double) tokens / classified;
        }

        static double pct(int part, int whole) {
            return whole == 0 ? 0 : 100.0 * part / whole;
        }
    }

    /** Tickets answered differently from the baseline step: right there and wrong here (lost), or the other way (won). */
    record Changes(int categoryLost, int categoryWon, int urgencyLost, int urgencyWon) {
    }

    /** The figures and the printed table. */
    public record Result(List<Row> rows, String report) {

        /** Every step classified every ticket. */
        public boolean clean() {
            return rows.stream().allMatch(r -> r.classified() == r.tickets());
        }
    }

    private final int tickets;
    private final long seed;
    private final int batchItems;
    private final int initialPerItem;
    private final Consumer<String> progress;

    public LeanBenchmark(int tickets, long seed, Consumer<String> progress) {
        this(tickets, seed, BatchSettings.ofDefaults().maxItems(), BatchSettings.ofDefaults().completionTokensPerItem(), progress);
    }

    /**
     * @param batchItems     tickets per call
     * @param initialPerItem the completion budget per ticket before any answer came back
     */
    LeanBenchmark(int tickets, long seed, int batchItems, int initialPerItem, Consumer<String> progress) {
        if (tickets < 1 || batchItems < 1 || initialPerItem < 1) {
            throw new IllegalArgumentException("tickets, batch items and the initial budget must be >= 1");
        }
        this.tickets = tickets;
        this.seed = seed;
        this.batchItems = batchItems;
        this.initialPerItem = initialPerItem;
        this.progress = progress;
    }

    public Result run() {
        Map<String, List<Labelled>> sets = new LinkedHashMap<>();
        sets.put("generated", generated(tickets, seed));
        sets.put("real-shaped", realShaped(REAL_SHAPED_TICKETS, seed));
        sets.put("demo", demo());
        List<Row> rows = new ArrayList<>();
        LeanDisagreements why = null;
        SimulatorConfig config = SimulatorConfig.builder().port(0).rpm(1_000_000_000L).tpm(1_000_000_000_000L).noLatency()
                .apiKeys(Set.of(API_KEY)).seed(seed).build();
        try (ProviderSimulator simulator = ProviderSimulator.start(config)) {
            ModelSettings settings = ModelSettings.of(URI.create(simulator.baseUrl()), config.model(), Secret.of(API_KEY));
            try (OpenAiChatClient client = new OpenAiChatClient(settings)) {
                for (Map.Entry<String, List<Labelled>> set : sets.entrySet()) {
                    Map<String, ModelOutcome.Label> baseline = null;
                    for (Step step : STEPS) {
                        progress.accept(set.getKey() + " (" + set.getValue().size() + " tickets): " + step.name());
                        Map<String, ModelOutcome.Label> answers = new HashMap<>();
                        Row row = runStep(set.getKey(), set.getValue(), step, settings, client, answers, baseline);
                        rows.add(row);
                        if (baseline == null) {
                            baseline = answers;
                            if (set.getKey().equals("generated")) {
                                why = LeanDisagreements.of(set.getValue(), answers);
                            }
                        }
                    }
                }
            }
        }
        return new Result(rows, report(rows) + (why == null ? "" : why.report()));
    }

    /** A batch waiting to be sent: its tickets, their {@code max_tokens} boost, the tries so far. */
    private record Pending(List<Labelled> items, int boost, int tries) {
    }

    /** What a step's calls came to: calls, cut calls, prompt, completion and admitted tokens, {@code max_tokens}. */
    private static final class Tally {
        long calls;
        long cut;
        long prompt;
        long completion;
        long admitted;
        long maxTokens;
    }

    private Row runStep(String set, List<Labelled> all, Step step, ModelSettings settings, OpenAiChatClient client,
                        Map<String, ModelOutcome.Label> answers, Map<String, ModelOutcome.Label> baseline) {
        PromptBuilder prompts = new PromptBuilder(settings, step.levers());
        LeanBudget budget = step.tightBudget() ? LeanBudget.learned(initialPerItem) : new LeanBudget.Legacy(initialPerItem);
        Deque<Pending> queue = new ArrayDeque<>();
        for (int from = 0; from < all.size(); from += batchItems) {
            queue.add(new Pending(all.subList(from, Math.min(all.size(), from + batchItems)), 1, 0));
        }
        Tally t = new Tally();
        while (!queue.isEmpty()) {
            Pending p = queue.poll();
            int maxTokens = budget.maxTokens(p.items().size(), p.boost());
            ChatPrompt prompt = prompts.build(p.items().stream().map(l -> new ModelItem(l.key(), l.subject(), l.body())).toList(), maxTokens);
            ModelOutcome outcome = client.classify(new ModelRequest(set + "-" + t.calls, prompt)).toCompletableFuture().join();
            t.calls++;
            if (outcome instanceof ModelOutcome.Answered a) {
                answered(p, a, maxTokens, budget, queue, t);
                answers.putAll(a.labels());
            } else if (p.tries() + 1 < TRIES) {
                queue.addFirst(new Pending(p.items(), p.boost(), p.tries() + 1));
            }
        }
        return score(set, step, all, answers, baseline, t);
    }

    /** The dispatcher's handling of an answer: a cut call's rest asked again at twice the budget, an invalid ticket alone. */
    private static void answered(Pending p, ModelOutcome.Answered a, int maxTokens, LeanBudget budget, Deque<Pending> queue, Tally t) {
        t.prompt += a.promptTokens();
        t.completion += a.completionTokens();
        t.admitted += a.promptTokens() + maxTokens;
        t.maxTokens += maxTokens;
        List<Labelled> rest = p.items().stream().filter(l -> !a.labels().containsKey(l.key())).toList();
        if (a.truncated()) {
            t.cut++;
            budget.recordCut(p.items().size(), maxTokens);
            if (!rest.isEmpty() && p.boost() < 8) {
                queue.addFirst(new Pending(rest, p.boost() * 2, p.tries()));
            }
        } else if (rest.isEmpty()) {
            budget.record(p.items().size(), a.completionTokens());
        } else if (p.tries() + 1 < TRIES) {
            rest.forEach(l -> queue.addFirst(new Pending(List.of(l), p.boost(), p.tries() + 1)));
        }
    }

    private static Row score(String set, Step step, List<Labelled> all, Map<String, ModelOutcome.Label> answers,
                             Map<String, ModelOutcome.Label> baseline, Tally t) {
        int[] right = new int[6];
        for (Labelled l : all) {
            ModelOutcome.Label got = answers.get(l.key());
            if (got != null) {
                ModelOutcome.Label before = baseline == null ? got : baseline.get(l.key());
                tallyAnswer(right, l, got, before == null ? got : before);
            }
        }
        return new Row(set, step.name(), all.size(), t.calls, t.cut, t.prompt, t.completion, t.admitted, t.maxTokens, answers.size(),
                right[0], right[1], new Changes(right[2], right[3], right[4], right[5]));
    }

    private static void tallyAnswer(int[] right, Labelled l, ModelOutcome.Label got, ModelOutcome.Label before) {
        boolean category = got.category().equals(l.category());
        boolean urgency = got.urgency().equals(l.urgency());
        boolean categoryBefore = before.category().equals(l.category());
        boolean urgencyBefore = before.urgency().equals(l.urgency());
        right[0] += category ? 1 : 0;
        right[1] += urgency ? 1 : 0;
        right[2] += categoryBefore && !category ? 1 : 0;
        right[3] += !categoryBefore && category ? 1 : 0;
        right[4] += urgencyBefore && !urgency ? 1 : 0;
        right[5] += !urgencyBefore && urgency ? 1 : 0;
    }

    static List<Labelled> generated(int count, long seed) {
        return new TicketGenerator(seed).generate(count).stream()
                .map(g -> new Labelled(TicketKey.key(g.tenant(), g.id()), g.subject(), g.body(), g.label().category(), g.label().urgency()))
                .toList();
    }

    /** {@code count} generated tickets (of another seed than the generated set's) with {@link RealShapes}' heavy tail. */
    static List<Labelled> realShaped(int count, long seed) {
        RealShapes shapes = new RealShapes(seed);
        List<Labelled> base = generated(count, seed + 1);
        List<Labelled> out = new ArrayList<>(base.size());
        for (int i = 0; i < base.size(); i++) {
            Labelled l = base.get(i);
            out.add(new Labelled(l.key(), l.subject(), shapes.shape(i, l.body()), l.category(), l.urgency()));
        }
        return out;
    }

    /** The demo's labelled tickets (its malformed lines and its ticket too large for any model left out). */
    static List<Labelled> demo() {
        Map<String, DemoDataset.Label> labels = DemoDataset.labels();
        List<Labelled> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(DemoDataset.openTickets(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                JsonNode node;
                try {
                    node = Json.MAPPER.readTree(line);
                } catch (IOException malformed) {
                    continue;
                }
                String id = node == null ? null : node.path("id").asText(null);
                DemoDataset.Label label = id == null ? null : labels.get(id);
                if (label == null || DemoDataset.HUGE_TICKET_ID.equals(id)) {
                    continue;
                }
                String tenant = node.path("tenant").asText(io.quotaflow.records.Ticket.DEFAULT_TENANT);
                out.add(new Labelled(TicketKey.key(tenant, id), node.path("subject").asText(null), node.path("body").asText(null),
                        label.category(), label.urgency()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static String report(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-11s %-30s %8s %7s %7s %7s %8s %10s %9s %9s %12s %12s%n", "set", "step", "admitted",
                "used", "prompt", "compl.", "max_tok", "cut calls", "category", "urgency", "cat lost/won", "urg lost/won"));
        for (Row r : rows) {
            Changes c = r.changes();
            sb.append(String.format(Locale.ROOT, "%-11s %-30s %8.1f %7.1f %7.1f %7.1f %8.1f %5d/%-4d %8.2f%% %8.2f%% %12s %12s%n",
                    r.set(), r.step(), r.perTicket(r.admittedTokens()), r.perTicket(r.promptTokens() + r.completionTokens()),
                    r.perTicket(r.promptTokens()), r.perTicket(r.completionTokens()), r.perTicket(r.maxTokens()), r.cutCalls(), r.calls(),
                    Row.pct(r.categoryRight(), r.classified()), Row.pct(r.urgencyRight(), r.classified()),
                    c.categoryLost() + "/" + c.categoryWon(), c.urgencyLost() + "/" + c.urgencyWon()));
            if (r.classified() < r.tickets()) {
                sb.append(String.format(Locale.ROOT, "%-11s   %d of %d tickets unclassified%n", "", r.tickets() - r.classified(), r.tickets()));
            }
        }
        sb.append("Tokens per classified ticket: admitted = prompt + max_tokens (what a TPM limit counts), used = prompt + completion.\n")
                .append("Lost/won: tickets answered wrongly here but rightly by the baseline step, and the other way round.\n");
        return sb.toString();
    }
}
