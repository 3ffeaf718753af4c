package io.quotaflow.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * A local OpenAI-compatible chat-completions provider with OpenAI-style rate limits: the default
 * model of {@code quotaflow demo}, {@code quotaflow sim} and the integration tests.
 *
 * <p>Endpoints:
 * <ul>
 *   <li>{@code POST /v1/chat/completions}: bearer-key authentication (401 {@code invalid_api_key}),
 *       request validation (400), model check (404 {@code model_not_found}), the context window
 *       (400 {@code context_length_exceeded} when prompt tokens + max_tokens exceed
 *       {@link SimulatorConfig#contextTokens()}), per-key RPM and TPM buckets (429
 *       {@code rate_limit_exceeded} with {@code retry-after}, {@code retry-after-ms} and an
 *       OpenAI-shaped "Used X, Requested Y" message), then a keyword-rule classification of the
 *       tickets in the last user message, answered after a simulated latency. Every 200, 429, 400
 *       and 404 after authentication carries the six {@code x-ratelimit-*} headers, which report
 *       the key's real buckets: the configured per-minute limits, the levels after this request's
 *       debit (unchanged for a refused one) and the time until each bucket is full.</li>
 *   <li>{@code GET /v1/models}: the models served that the key may use.</li>
 *   <li>{@code GET /admin/stats}: {@link SimulatorStats} as JSON. {@code POST /admin/reset}:
 *       refills every bucket and clears the statistics. {@code GET /admin/faults}: the current
 *       {@link Faults} as JSON; {@code POST /admin/faults} with such a JSON body
 *       replaces them (fields left out are off). {@code POST /admin/models/NAME/down} (optional body
 *       {@code {"status":503}}) and {@code POST /admin/models/NAME/up} take one model down and bring it
 *       back ({@link #setDown(String, int)}). The admin endpoints need no key and are never
 *       subject to faults.</li>
 * </ul>
 *
 * <p>Engine mode ({@link SimulatorConfig#engine()}, {@link EngineMode}): the simulator is a
 * self-hosted engine instead: no rate limits and no {@code x-ratelimit-*} header on any answer; a call
 * admitted while {@code n} calls run (itself included) takes its latency × max(1, n / K), and one
 * more than M running is refused at once with a TGI-style 429 {@code {"error":"Model is
 * overloaded","error_type":"overloaded"}} (or a 503), counted as the fault {@code overloaded}.
 *
 * <p>Several models: besides its default model the simulator serves
 * {@link SimulatorConfig#extraModels()} on the same port, each with its own RPM/TPM buckets per key,
 * burst, context window, tokenizer and optionally keys ({@link ModelSpec}); the body's {@code model}
 * picks one, a model not served gets 404 {@code model_not_found}, and the headers, 429s and
 * {@link SimulatorStats#models() statistics} are per model. One model can be taken down and brought
 * back ({@link #setDown(String, int)}, or an {@link Outage} naming it) while the others serve on.
 * Two simulators on two ports are simply two instances ({@code port(0)} picks free ports).
 *
 * <p>Fault injection ({@link Faults}, switchable at run time with
 * {@link #setFaults}), in the order a chat-completion request meets them:
 * <ol>
 *   <li>an outage window (relative to the simulator's start) answers 503 "The server is
 *       overloaded or not ready yet." to every request, before authentication;</li>
 *   <li>{@code failAuth} answers 401 {@code invalid_api_key} to every request;</li>
 *   <li>after authentication and validation, one draw of the seeded random source picks at most
 *       one of: 500 {@code server_error}, 503, 529 {@code overloaded_error}, a hang (the connection
 *       is parked on a timer and closed after {@link #HANG} without an answer, holding no thread),
 *       a malformed 200 (content that is not JSON), a 200 missing one ticket id, or a stalled 200 (its
 *       headers and half its body sent, the connection then held and closed after {@link #HANG}).</li>
 * </ol>
 * The failures (outage, 401, 5xx, hang) never debit the rate limits; the malformed and
 * missing-item (and stalled) 200s were admitted and debit them like any 200 (a short bucket gives its 429
 * instead). Draws are deterministic per {@link SimulatorConfig#seed()} for a sequential client.
 *
 * <p>Tokens are counted with the simulator's own {@link SimulatorConfig#tokenizer()}, which may
 * differ from the client's on purpose: {@code usage.prompt_tokens}, the bucket debits, the 429
 * "Requested" numbers and the context check all use that count. Neither a 400 nor a 429 charges
 * anything.
 *
 * <p>Rate limits follow how providers behave: a request is admitted by its <em>estimate</em>,
 * prompt tokens plus {@code max_tokens} (or {@code max_completion_tokens}, default
 * {@link SimulatorConfig#defaultMaxTokens()}), and the estimate is not refunded when the answer
 * is shorter; a request whose estimate exceeds the per-minute token limit itself is refused with
 * "Request too large" and no retry hint, since waiting cannot help.
 *
 * <p>Threads: a small pool parses, admits and classifies; the answer is then scheduled on a timer
 * after the simulated latency, so latency never occupies a thread and concurrent requests overlap.
 *
 * <p>Time: one injected {@link SimClock} drives the buckets, the outage windows, the statistics
 * and the answers' {@code created}; only the answer timer at the HTTP edge waits in real time.
 *
 * <p>Parts: {@link ChatCompletions} decides each chat-completion answer ({@link RequestChecker},
 * {@link Fault}, {@link KeyLimiter}, {@link AnswerBuilder}, {@link OpenAiErrors}) as a
 * {@link Reply}, which {@link ReplySender} sends; {@link Routes} routes and serves the other
 * endpoints; {@link StatsRecorder} counts; this class binds the port and wires them.
 */
public final class ProviderSimulator implements AutoCloseable {

    /** How long a hung request is held before its connection is closed without an answer. */
    public static final Duration HANG = Duration.ofSeconds(120);

    private static final Logger LOG = LoggerFactory.getLogger(ProviderSimulator.class);

    /** What {@link #setDown(String, boolean)} answers: 503. */
    public static final int DEFAULT_DOWN_STATUS = 503;
    private static final Set<Integer> DOWN_STATUSES = Set.of(401, 403, 404, 429);

    private static final int HANDLER_THREADS = 4;
    private static final int ANSWER_THREADS = 2;

    static {
        // The JDK server writes the response headers and the body separately; with Nagle's algorithm
        // on, the body then waits for the client's delayed ACK, adding ~40 ms to every answer. A
        // documented jdk.httpserver property, read once when the first server of the JVM is made;
        // an explicit setting wins.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final SimulatorConfig config;
    private final HttpServer server;
    private final ExecutorService handlerPool;
    private final ScheduledThreadPoolExecutor answerScheduler;
    private final SimClock clock;
    private final long startNanos;
    private final StatsRecorder stats;
    private final ChatCompletions chat;
    private final ReplySender sender;
    private final Routes routes;
    private final SimBatches batches;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Faults faults;

    private ProviderSimulator(SimulatorConfig config, SimClock clock) throws IOException {
        this.config = config;
        this.clock = clock;
        this.startNanos = clock.nanos();
        this.faults = config.faults();
        Random random = new Random(config.seed());
        this.stats = new StatsRecorder(config, clock);
        this.chat = new ChatCompletions(config, clock, startNanos, () -> faults, stats, random);
        InetAddress address = InetAddress.getByName(config.bindAddress());
        this.server = HttpServer.create(new InetSocketAddress(address, config.port()), 512);
        this.handlerPool = Executors.newFixedThreadPool(HANDLER_THREADS, daemonThreads("quotaflow-sim-http-"));
        this.answerScheduler = new ScheduledThreadPoolExecutor(ANSWER_THREADS, daemonThreads("quotaflow-sim-answer-"));
        this.answerScheduler.setRemoveOnCancelPolicy(true);
        this.sender = new ReplySender(answerScheduler, stats, random, config.dialect(), clock::epochMs);
        this.batches = new SimBatches(chat, config.model(), clock::epochMs);
        this.routes = new Routes(this, chat, stats, batches);
        server.setExecutor(handlerPool);
        server.createContext("/", this::handle);
    }

    /**
     * Binds the port and starts serving, on the JVM's clock ({@link SimClock#system()}).
     *
     * @throws UncheckedIOException when the address cannot be bound (port in use, ...)
     */
    public static ProviderSimulator start(SimulatorConfig config) {
        return start(config, SimClock.system());
    }

    /**
     * {@link #start(SimulatorConfig)} on an injected monotonic nanosecond clock (tests), anchored to
     * the wall clock once, now.
     */
    public static ProviderSimulator start(SimulatorConfig config, LongSupplier nanoClock) {
        return start(config, SimClock.anchored(Objects.requireNonNull(nanoClock, "nanoClock"), System.currentTimeMillis()));
    }

    /** {@link #start(SimulatorConfig)} on an injected {@link SimClock}. */
    public static ProviderSimulator start(SimulatorConfig config, SimClock clock) {
        ProviderSimulator simulator;
        try {
            simulator = new ProviderSimulator(config, Objects.requireNonNull(clock, "clock"));
        } catch (IOException e) {
            throw new UncheckedIOException("provider simulator cannot listen on " + config.bindAddress() + ":"
                    + config.port() + ": " + e.getMessage(), e);
        }
        simulator.server.start();
        if (config.faults().any()) {
            LOG.info("Provider simulator fault injection: {}", config.faults().describe());
        }
        LOG.debug("Provider simulator listening on {} ({})", simulator.baseUrl(), config);
        return simulator;
    }

    /** The bound port (the chosen one when the configuration said 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * What a client uses as its base URL: {@code http://localhost:PORT/v1} (OpenAI, Anthropic),
     * {@code http://localhost:PORT/v1beta/openai} (Gemini), {@code http://localhost:PORT} (Azure).
     */
    public String baseUrl() {
        return "http://localhost:" + port() + config.dialect().basePath();
    }

    /** The configuration the simulator started with ({@link #faults()} may have changed since). */
    public SimulatorConfig config() {
        return config;
    }

    /** The faults in force now. */
    public Faults faults() {
        return faults;
    }

    /**
     * How the batch jobs created from now on end: after {@code delayMs}, {@code completed}; with
     * {@code expireAfter >= 0}, {@code expired} after answering that many lines ({@code POST /admin/batches}).
     */
    public void setBatches(long delayMs, int expireAfter) {
        batches.set(delayMs, expireAfter);
    }

    /** How the batch jobs created from now on behave ({@code POST /admin/batches}). */
    public void setBatches(BatchBehaviour behaviour) {
        batches.set(behaviour);
    }

    /** Batch jobs refused so far for the enqueued-token limit ({@code token_limit_exceeded}). */
    public int batchTokenLimitRefusals() {
        return batches.tokenLimitRefusals();
    }

    /** The ids of the batch jobs created so far, oldest first. */
    public java.util.List<String> batchJobIds() {
        return batches.ids();
    }

    /** Whether batch job {@code id} was run to its end and its output read. */
    public boolean batchJobRead(String id) {
        return batches.read(id);
    }

    /** Batch jobs created and not yet run to their end with their output read. */
    public int batchJobsUnread() {
        return batches.unread();
    }

    /** Batch jobs created so far ({@code POST /v1/batches}). */
    public int batchJobs() {
        return batches.created();
    }

    /**
     * Replaces the faults in force, from the next request on (requests already admitted or parked
     * are not affected). Outage windows stay relative to the simulator's start.
     */
    public void setFaults(Faults faults) {
        this.faults = Objects.requireNonNull(faults, "faults");
        LOG.info("Provider simulator faults set to: {}", faults.describe());
    }

    /**
     * Takes {@code model} down ({@code true}: every request for it gets 503 "The server is
     * overloaded or not ready yet.") or brings it back ({@code false}), from the next request on;
     * the other models are not affected.
     *
     * @throws IllegalArgumentException when the simulator does not serve {@code model}
     */
    public void setDown(String model, boolean down) {
        setDown(model, down ? DEFAULT_DOWN_STATUS : 0);
    }

    /**
     * Takes {@code model} down answering {@code status} to every request for it (after
     * authentication, before the rate limits, never charging them), or brings it back with 0.
     * Statuses: any 5xx (503 "overloaded or not ready", 529 {@code overloaded_error}, others
     * {@code server_error}), 401 {@code invalid_api_key}, 403 {@code permission_denied}, 404
     * {@code model_not_found}, 429 {@code insufficient_quota}.
     *
     * @throws IllegalArgumentException for another status, or a model the simulator does not serve
     */
    public void setDown(String model, int status) {
        if (status != 0 && !DOWN_STATUSES.contains(status) && (status < 500 || status > 599)) {
            throw new IllegalArgumentException("a model can be down with a 5xx, 401, 403, 404 or 429 (0 brings it back), got "
                    + status);
        }
        chat.model(model).setDown(status);
        LOG.info("Provider simulator: model {} {}", model, status == 0 ? "is back up" : "is down (answers " + status + ")");
    }

    /** The status {@code model} answers while down, or empty while it is up. */
    public OptionalInt down(String model) {
        return chat.model(model).down();
    }

    /** The calls an engine ({@link SimulatorConfig#engine()}) runs now; empty for a rate-limited provider. */
    public OptionalInt engineRunning() {
        return chat.engine().map(e -> OptionalInt.of(e.running())).orElse(OptionalInt.empty());
    }

    /** The most calls an engine ran at once since the start; empty for a rate-limited provider. */
    public OptionalInt enginePeak() {
        return chat.engine().map(e -> OptionalInt.of(e.peak())).orElse(OptionalInt.empty());
    }

    /** The calls an engine ran (the first {@value EngineLoad#LOG_LIMIT}), in order; empty for a rate-limited provider. */
    public List<EngineCall> engineCalls() {
        return chat.engine().map(EngineLoad::calls).orElse(List.of());
    }

    /** When an engine refused a call as overloaded, in ms since the start; empty for a rate-limited provider. */
    public List<Long> engineRefusals() {
        return chat.engine().map(EngineLoad::refusals).orElse(List.of());
    }

    /** Time since the simulator started: the clock of the outage windows. */
    public Duration uptime() {
        return clock.since(startNanos);
    }

    /** A snapshot of the statistics. */
    public SimulatorStats stats() {
        return stats.snapshot();
    }

    /** Refills every bucket (forgets every key) and clears the statistics (and an engine's logs). */
    public void reset() {
        chat.forgetKeys();
        chat.engine().ifPresent(EngineLoad::clear);
        stats.reset();
    }

    /** Stops listening; answers still waiting for their latency are dropped. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        answerScheduler.shutdownNow();
        server.stop(0);
        handlerPool.shutdownNow();
        try {
            answerScheduler.awaitTermination(2, TimeUnit.SECONDS);
            handlerPool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- routing

    private void handle(HttpExchange exchange) {
        String path = exchange.getRequestURI().getPath();
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        boolean chatRequest = path.equals("/v1/chat/completions") && exchange.getRequestMethod().equalsIgnoreCase("POST");
        try {
            sender.send(exchange, routes.route(exchange, path, exchange.getRequestMethod().toUpperCase(Locale.ROOT)));
        } catch (ReplySender.BodyTooLargeException e) {
            sender.send(exchange, OpenAiErrors.error(413, "The request body exceeds " + ReplySender.MAX_BODY_BYTES + " bytes.",
                    "invalid_request_error", null, null, Map.of(), chatRequest));
        } catch (IOException e) {
            LOG.debug("Provider simulator: I/O error on {}: {}", exchange.getRequestURI(), e.toString());
            exchange.close();
        } catch (RuntimeException e) {
            LOG.warn("Provider simulator: internal error on {}", exchange.getRequestURI(), e);
            sender.send(exchange, OpenAiErrors.error(500, "The simulator failed to process the request: " + e, "server_error",
                    null, null, Map.of(), chatRequest));
        }
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> {
            Thread t = new Thread(runnable, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
