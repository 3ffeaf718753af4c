package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.llm.ChatPrompt;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.llm.PromptLevers;
import io.quotaflow.records.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A faithful port of the fixed-batch baseline, the baseline quotaflow is measured against. It reads a
 * list of tickets (no Kafka) and talks HTTP to the provider directly:
 *
 * <ul>
 *   <li>{@value #WORKERS} worker threads take groups of {@value #GROUP_SIZE} tickets, in the list's
 *       order (whatever their priority), one group at a time each;</li>
 *   <li>before a group's call a worker reserves {@code ceil(characters / 3.5) + 40} tokens per ticket
 *       of the group (characters = the subject and body it sends) against a shared
 *       {@link SlidingWindowBudget sliding 60 s window} of {@code 0.85 × TPM}, blocking until the
 *       window has room; the group's retries go under that same reservation (a refused call costs
 *       the provider nothing, so reserving again for each try would only count it twice); after a
 *       200 it corrects the reservation to the answer's {@code usage.total_tokens}; the reservation
 *       of a group that never got a 200 stays as estimated;</li>
 *   <li>on a 429 it waits {@code retry-after} (seconds; {@code retry-after-ms} when that is missing,
 *       1 s when both are) plus a random 0–500 ms and tries again; any other failure (a 400, a 5xx, a
 *       timeout) is tried again after the random 0–500 ms alone;</li>
 *   <li>at most {@value #TRIES} tries per group; a group that fails them all is lost, all its tickets.</li>
 * </ul>
 *
 * <p>The request body is the one quotaflow sent before its lean prompts ({@link PromptBuilder} with
 * {@link PromptLevers#FULL}, prompt version 1: the long system prompt, the tickets as one JSON user
 * message with their own ids and whole text, the same strict response format), as the job itself
 * would send, with {@code max_tokens} = {@code 8 + 28 × tickets}, the dispatcher's starting budget,
 * fixed. What the lean prompt saves (docs/design.md, "Lean prompts") is quotaflow's, so it shows in
 * the ratio; {@code quotaflow bench --scenario lean} measures each lever on its own. The job does
 * not look at rate-limit headers, does not learn {@code max_tokens} and does not split a group.
 *
 * <p>Not a test: it reports what happened ({@link Outcome}); the simulator's statistics say what the
 * provider admitted.
 */
public final class BaselineRunner {

    public static final int WORKERS = 4;
    public static final int GROUP_SIZE = 10;
    public static final double CHARS_PER_TOKEN = 3.5;
    public static final int TOKENS_PER_TICKET = 40;
    public static final double BUDGET_FRACTION = 0.85;
    public static final int TRIES = 5;
    public static final int JITTER_MS = 500;
    /** {@code max_tokens} per call: {@code BASE + PER_TICKET × tickets}. */
    public static final int MAX_TOKENS_BASE = 8;
    public static final int MAX_TOKENS_PER_TICKET = 28;
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    /**
     * @param seed     seed of the retry jitter
     * @param timeout  give up (and throw) after this long
     * @param progressInterval how often the progress callback is called
     */
    public record Options(long seed, Duration timeout, Duration progressInterval) {
        public Options {
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(progressInterval, "progressInterval");
        }
    }

    /** A live sample. */
    public record Progress(long elapsedMs, long tickets, long classified, long lost, long calls, long http429) {
    }

    /**
     * What the job did.
     *
     * @param tickets             tickets in the list
     * @param groups              groups of up to {@value #GROUP_SIZE}
     * @param classified          tickets with an answer (an id of the group with a category and an urgency)
     * @param lost                tickets without one: their group failed {@value #TRIES} tries, or the answer left them out
     * @param lostGroups          groups that failed every try
     * @param calls               HTTP requests sent
     * @param http429             answers with status 429
     * @param failuresByStatus    other failed tries by HTTP status ({@code "0"} = no answer: timeout, I/O error)
     * @param firstCallEpochMs    when the first request went out
     * @param lastCallEpochMs     when the last request went out
     * @param lastAnswerEpochMs   when the last answer (of any status) came back
     * @param reservedTokens      sum of the reservations made (the estimates, one per group)
     * @param reportedTokens      sum of {@code usage.total_tokens} of the 200s (what the window was corrected to)
     * @param windowWaits         reservations that had to wait for the window
     * @param answers             category and urgency by ticket id
     */
    public record Outcome(long tickets, long groups, long classified, long lost, long lostGroups, long calls, long http429,
                          Map<String, Long> failuresByStatus, long firstCallEpochMs, long lastCallEpochMs, long lastAnswerEpochMs,
                          long reservedTokens,
                          long reportedTokens, long windowWaits, Map<String, GeneratedTicket.Label> answers) {

        public Outcome {
            failuresByStatus = Map.copyOf(failuresByStatus);
            answers = Map.copyOf(answers);
        }

        /** First call to last answer. */
        public long busyMs() {
            return Math.max(0, lastAnswerEpochMs - firstCallEpochMs);
        }
    }

    private final Options options;

    public BaselineRunner(Options options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /** The baseline's estimate for one ticket: {@code ceil(characters / 3.5) + 40}. */
    public static long estimate(GeneratedTicket ticket) {
        return estimate(ticket.textLength());
    }

    /** {@code ceil(characters / 3.5) + 40}, computed exactly ({@code ceil(2c / 7)}). */
    public static long estimate(int characters) {
        return (2L * characters + 6) / 7 + TOKENS_PER_TICKET;
    }

    /** What a group reserves: the sum of its tickets' {@link #estimate(GeneratedTicket)}. */
    public static long reservation(List<GeneratedTicket> group) {
        long sum = 0;
        for (GeneratedTicket t : group) {
            sum += estimate(t);
        }
        return sum;
    }

    /** The tickets cut into groups of {@value #GROUP_SIZE}, in order. */
    public static List<List<GeneratedTicket>> groups(List<GeneratedTicket> tickets) {
        List<List<GeneratedTicket>> groups = new ArrayList<>();
        for (int from = 0; from < tickets.size(); from += GROUP_SIZE) {
            groups.add(List.copyOf(tickets.subList(from, Math.min(tickets.size(), from + GROUP_SIZE))));
        }
        return groups;
    }

    /**
     * How long to wait after a 429, before the jitter: {@code retry-after} in seconds (a number,
     * possibly with a fraction), else {@code retry-after-ms}, else 1 s.
     */
    public static long retryAfterMs(HttpHeaders headers) {
        OptionalLong seconds = number(headers.firstValue("retry-after").orElse(null), 1000);
        if (seconds.isPresent()) {
            return seconds.getAsLong();
        }
        return number(headers.firstValue("retry-after-ms").orElse(null), 1).orElse(1_000);
    }

    private static OptionalLong number(String text, long scale) {
        if (text == null || text.isBlank()) {
            return OptionalLong.empty();
        }
        try {
            double v = Double.parseDouble(text.strip());
            return v >= 0 && Double.isFinite(v) ? OptionalLong.of((long) Math.ceil(v * scale)) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** {@code max_tokens} of a call of {@code items} tickets. */
    public static int maxTokens(int items) {
        return MAX_TOKENS_BASE + MAX_TOKENS_PER_TICKET * items;
    }

    /**
     * Classifies {@code tickets} against the provider at {@code baseUrl}.
     *
     * @param tpm      the provider's tokens per minute (the window's budget is {@value #BUDGET_FRACTION} of it)
     * @param progress called on this thread about every {@link Options#progressInterval()}
     * @throws IllegalStateException on timeout or interruption
     */
    public Outcome run(List<GeneratedTicket> tickets, String baseUrl, String model, String apiKey, long tpm,
                       Consumer<Progress> progress) {
        ModelSettings settings = ModelSettings.of(URI.create(baseUrl), model, Secret.of(apiKey));
        PromptBuilder prompts = new PromptBuilder(settings, PromptLevers.FULL);
        Set<String> categories = Set.copyOf(settings.categories());
        Set<String> urgencies = Set.copyOf(settings.urgencies());
        SlidingWindowBudget window = SlidingWindowBudget.ofTpm(tpm, BUDGET_FRACTION);
        List<List<GeneratedTicket>> groups = groups(tickets);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        State state = new State();
        AtomicInteger next = new AtomicInteger();
        long start = System.currentTimeMillis();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            SplittableRandom jitter = new SplittableRandom(options.seed() * 31 + w);
            Thread t = new Thread(() -> {
                int g;
                while ((g = next.getAndIncrement()) < groups.size() && !Thread.currentThread().isInterrupted()) {
                    try {
                        classify(groups.get(g), prompts, settings, categories, urgencies, window, http, apiKey, jitter, state);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }, "quotaflow-baseline-" + (w + 1));
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
        try {
            long deadline = start + options.timeout().toMillis();
            for (Thread t : workers) {
                while (t.isAlive()) {
                    t.join(Math.max(1, options.progressInterval().toMillis()));
                    progress.accept(state.progress(System.currentTimeMillis() - start, tickets.size()));
                    if (System.currentTimeMillis() > deadline) {
                        workers.forEach(Thread::interrupt);
                        throw new IllegalStateException("baseline timed out after " + options.timeout().toSeconds() + " s with "
                                + (state.classified.get() + state.lost.get()) + " of " + tickets.size() + " tickets done");
                    }
                }
            }
        } catch (InterruptedException e) {
            workers.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        progress.accept(state.progress(System.currentTimeMillis() - start, tickets.size()));
        return new Outcome(tickets.size(), groups.size(), state.classified.get(), state.lost.get(), state.lostGroups.get(),
                state.calls.get(), state.http429.get(), new TreeMap<>(state.failures), state.firstCall.get(),
                state.lastCall.get(), state.lastAnswer.get(), state.reserved.get(), state.reported.get(), window.waits(), state.answers);
    }

    private void classify(List<GeneratedTicket> group, PromptBuilder prompts, ModelSettings settings, Set<String> categories,
                          Set<String> urgencies, SlidingWindowBudget window, HttpClient http, String apiKey,
                          SplittableRandom jitter, State state) throws InterruptedException {
        List<ModelItem> items = group.stream().map(t -> new ModelItem(t.id(), t.subject(), t.body())).toList();
        // the body quotaflow would send; its prompt tokens are not counted here (the job never did)
        ChatPrompt prompt = prompts.build(items, maxTokens(items.size()), 0);
        byte[] body;
        try {
            body = Json.MAPPER.writeValueAsBytes(prompt.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        HttpRequest request = HttpRequest.newBuilder(settings.chatCompletionsUri()).timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Bearer " + apiKey).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        long estimate = reservation(group);
        SlidingWindowBudget.Reservation reservation = window.reserve(estimate);
        state.reserved.addAndGet(estimate);
        for (int attempt = 1; attempt <= TRIES; attempt++) {
            state.calls.incrementAndGet();
            long sentAt = System.currentTimeMillis();
            state.firstCall.compareAndSet(0, sentAt);
            state.lastCall.accumulateAndGet(sentAt, Math::max);
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                state.answered();
                state.failed(0);
                Thread.sleep(jitter.nextInt(JITTER_MS + 1));
                continue;
            }
            state.answered();
            int status = response.statusCode();
            if (status == 200) {
                Answer answer = parse(response.body(), group, categories, urgencies);
                window.correct(reservation, answer.totalTokens());
                state.reported.addAndGet(answer.totalTokens());
                state.answers.putAll(answer.labels());
                state.classified.addAndGet(answer.labels().size());
                state.lost.addAndGet(group.size() - answer.labels().size());
                return;
            }
            if (status == 429) {
                state.http429.incrementAndGet();
                Thread.sleep(retryAfterMs(response.headers()) + jitter.nextInt(JITTER_MS + 1));
            } else {
                state.failed(status);
                Thread.sleep(jitter.nextInt(JITTER_MS + 1));
            }
        }
        state.lostGroups.incrementAndGet();
        state.lost.addAndGet(group.size());
    }

    /** A 200's usage and the group's tickets it classified. */
    record Answer(long totalTokens, Map<String, GeneratedTicket.Label> labels) {
    }

    /**
     * Reads a chat-completion answer: {@code usage.total_tokens} and, from the message content
     * {@code {"results":[{"id","category","urgency"}...]}}, the labels of the group's tickets
     * (ids outside the group, repeats and values outside the closed sets are ignored). Unreadable
     * content classifies nothing.
     */
    static Answer parse(String body, List<GeneratedTicket> group, Set<String> categories, Set<String> urgencies) {
        Map<String, GeneratedTicket.Label> labels = new java.util.LinkedHashMap<>();
        long total = 0;
        try {
            JsonNode root = Json.MAPPER.readTree(body);
            total = Math.max(0, root.path("usage").path("total_tokens").asLong(0));
            String content = root.path("choices").path(0).path("message").path("content").asText("");
            JsonNode results = Json.MAPPER.readTree(content).path("results");
            Set<String> ids = new HashSet<>();
            group.forEach(t -> ids.add(t.id()));
            for (JsonNode r : results) {
                String id = r.path("id").asText(null);
                String category = r.path("category").asText(null);
                String urgency = r.path("urgency").asText(null);
                if (id != null && ids.contains(id) && !labels.containsKey(id) && categories.contains(category)
                        && urgencies.contains(urgency)) {
                    labels.put(id, new GeneratedTicket.Label(category, urgency));
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // nothing classified
        }
        return new Answer(total, labels);
    }

    private static final class State {
        final AtomicLong classified = new AtomicLong();
        final AtomicLong lost = new AtomicLong();
        final AtomicLong lostGroups = new AtomicLong();
        final AtomicLong calls = new AtomicLong();
        final AtomicLong http429 = new AtomicLong();
        final AtomicLong reserved = new AtomicLong();
        final AtomicLong reported = new AtomicLong();
        final AtomicLong firstCall = new AtomicLong();
        final AtomicLong lastCall = new AtomicLong();
        final AtomicLong lastAnswer = new AtomicLong();
        final Map<String, Long> failures = new ConcurrentHashMap<>();
        final Map<String, GeneratedTicket.Label> answers = new ConcurrentHashMap<>();

        void answered() {
            lastAnswer.accumulateAndGet(System.currentTimeMillis(), Math::max);
        }

        void failed(int status) {
            failures.merge(Integer.toString(status), 1L, Long::sum);
        }

        Progress progress(long elapsedMs, long tickets) {
            return new Progress(elapsedMs, tickets, classified.get(), lost.get(), calls.get(), http429.get());
        }
    }
}
