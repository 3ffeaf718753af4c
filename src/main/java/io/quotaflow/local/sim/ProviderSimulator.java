package io.quotaflow.local.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quotaflow.quota.GoDuration;
import io.quotaflow.quota.TokenCounter.ChatMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 *   <li>{@code GET /v1/models}: the one model served.</li>
 *   <li>{@code GET /admin/stats}: {@link SimulatorStats} as JSON. {@code POST /admin/reset}:
 *       refills every bucket and clears the statistics. {@code GET /admin/faults}: the current
 *       {@link Faults} as JSON; {@code POST /admin/faults} with such a JSON body
 *       replaces them (fields left out are off). The admin endpoints need no key and are never
 *       subject to faults.</li>
 * </ul>
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
 *       a malformed 200 (content that is not JSON) or a 200 missing one ticket id.</li>
 * </ol>
 * The failures (outage, 401, 5xx, hang) never debit the rate limits; the malformed and
 * missing-item 200s were admitted and debit them like any 200 (a short bucket gives its 429
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
 */
public final class ProviderSimulator implements AutoCloseable {

    /** How long a hung request is held before its connection is closed without an answer. */
    public static final Duration HANG = Duration.ofSeconds(120);

    private static final Logger LOG = LoggerFactory.getLogger(ProviderSimulator.class);

    private static final String ORGANIZATION = "org-sim";
    private static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    private static final int HANDLER_THREADS = 4;
    private static final int ANSWER_THREADS = 2;
    /** The per-second series keeps this many seconds (six hours). */
    private static final int MAX_SECONDS_KEPT = 6 * 3600;
    private static final Pattern ID_FALLBACK = Pattern.compile("\"id\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

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
    private final ObjectMapper mapper = new ObjectMapper();
    /** The simulator's own tokenizer ({@link SimulatorConfig#tokenizer()}), not necessarily the client's. */
    private final SimTokenizer.Counter tokenCounter;
    private final KeywordClassifier classifier = new KeywordClassifier();
    private final Map<String, KeyLimiter> limiters = new ConcurrentHashMap<>();
    private final List<byte[]> acceptedKeys;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final Random random;
    private final AtomicLong completionIds = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Stats stats = new Stats();
    private volatile Faults faults;

    private ProviderSimulator(SimulatorConfig config, LongSupplier nanoClock) throws IOException {
        this.config = config;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.faults = config.faults();
        this.tokenCounter = config.tokenizer().counter(config.model());
        this.random = new Random(config.seed());
        this.acceptedKeys = config.apiKeys().stream().map(k -> k.getBytes(StandardCharsets.UTF_8)).toList();
        InetAddress address = InetAddress.getByName(config.bindAddress());
        this.server = HttpServer.create(new InetSocketAddress(address, config.port()), 512);
        this.handlerPool = Executors.newFixedThreadPool(HANDLER_THREADS, daemonThreads("quotaflow-sim-http-"));
        this.answerScheduler = new ScheduledThreadPoolExecutor(ANSWER_THREADS, daemonThreads("quotaflow-sim-answer-"));
        this.answerScheduler.setRemoveOnCancelPolicy(true);
        server.setExecutor(handlerPool);
        server.createContext("/", this::handle);
    }

    /**
     * Binds the port and starts serving.
     *
     * @throws UncheckedIOException when the address cannot be bound (port in use, ...)
     */
    public static ProviderSimulator start(SimulatorConfig config) {
        return start(config, System::nanoTime);
    }

    /**
     * {@link #start(SimulatorConfig)} with the monotonic clock of the rate-limit buckets and the
     * outage windows injected (tests).
     */
    static ProviderSimulator start(SimulatorConfig config, LongSupplier nanoClock) {
        ProviderSimulator simulator;
        try {
            simulator = new ProviderSimulator(config, Objects.requireNonNull(nanoClock, "nanoClock"));
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

    /** {@code http://localhost:PORT/v1}: what a client uses as its base URL. */
    public String baseUrl() {
        return "http://localhost:" + port() + "/v1";
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
     * Replaces the faults in force, from the next request on (requests already admitted or parked
     * are not affected). Outage windows stay relative to the simulator's start.
     */
    public void setFaults(Faults faults) {
        this.faults = Objects.requireNonNull(faults, "faults");
        LOG.info("Provider simulator faults set to: {}", faults.describe());
    }

    /** Time since the simulator started: the clock of the outage windows. */
    public Duration uptime() {
        return Duration.ofNanos(nanoClock.getAsLong() - startNanos);
    }

    /** A snapshot of the statistics. */
    public SimulatorStats stats() {
        return stats.snapshot();
    }

    /** Refills every bucket (forgets every key) and clears the statistics. */
    public void reset() {
        limiters.clear();
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
        boolean chat = path.equals("/v1/chat/completions") && exchange.getRequestMethod().equalsIgnoreCase("POST");
        try {
            String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
            switch (path) {
                case "/v1/chat/completions":
                    if (method.equals("POST")) {
                        chatCompletions(exchange);
                    } else {
                        methodNotAllowed(exchange, "POST");
                    }
                    break;
                case "/v1/models":
                    if (method.equals("GET")) {
                        models(exchange);
                    } else {
                        methodNotAllowed(exchange, "GET");
                    }
                    break;
                case "/admin/stats":
                    if (method.equals("GET")) {
                        readBody(exchange);
                        send(exchange, 200, Map.of(), mapper.writeValueAsBytes(stats()), false);
                    } else {
                        methodNotAllowed(exchange, "GET");
                    }
                    break;
                case "/admin/faults":
                    if (method.equals("GET")) {
                        readBody(exchange);
                        send(exchange, 200, Map.of(), mapper.writeValueAsBytes(faultsToJson(faults)), false);
                    } else if (method.equals("POST") || method.equals("PUT")) {
                        postFaults(exchange);
                    } else {
                        methodNotAllowed(exchange, "GET, POST");
                    }
                    break;
                case "/admin/reset":
                    if (method.equals("POST")) {
                        readBody(exchange);
                        reset();
                        send(exchange, 200, Map.of(), "{\"reset\":true}".getBytes(StandardCharsets.UTF_8), false);
                    } else {
                        methodNotAllowed(exchange, "POST");
                    }
                    break;
                default:
                    readBody(exchange);
                    sendError(exchange, 404, "Unknown request URL: " + method + " " + path
                            + ". Please check the URL for typos.", "invalid_request_error", null, "unknown_url", false);
            }
        } catch (BodyTooLargeException e) {
            sendError(exchange, 413, "The request body exceeds " + MAX_BODY_BYTES + " bytes.",
                    "invalid_request_error", null, null, chat);
        } catch (IOException e) {
            LOG.debug("Provider simulator: I/O error on {}: {}", exchange.getRequestURI(), e.toString());
            exchange.close();
        } catch (RuntimeException e) {
            LOG.warn("Provider simulator: internal error on {}", exchange.getRequestURI(), e);
            sendError(exchange, 500, "The simulator failed to process the request: " + e, "server_error", null, null,
                    chat);
        }
    }

    private void methodNotAllowed(HttpExchange exchange, String allowed) throws IOException {
        readBody(exchange);
        exchange.getResponseHeaders().set("allow", allowed);
        sendError(exchange, 405, "Method " + exchange.getRequestMethod() + " not allowed; use " + allowed + ".",
                "invalid_request_error", null, "method_not_allowed", false);
    }

    private void models(HttpExchange exchange) throws IOException {
        readBody(exchange);
        Faults current = faults;
        if (current.inOutage(uptime())) {
            stats.fault("outage");
            serviceUnavailable(exchange, false);
            return;
        }
        if (current.failAuth()) {
            stats.fault("auth");
            unauthorized(exchange, false);
            return;
        }
        if (authenticate(exchange) == null) {
            unauthorized(exchange);
            return;
        }
        ObjectNode list = mapper.createObjectNode().put("object", "list");
        list.putArray("data").addObject()
                .put("id", config.model()).put("object", "model").put("created", 0).put("owned_by", "quotaflow-sim");
        send(exchange, 200, Map.of(), mapper.writeValueAsBytes(list), false);
    }

    // ---------------------------------------------------------------- chat completions

    private void chatCompletions(HttpExchange exchange) throws IOException {
        stats.arrived();
        byte[] body = readBody(exchange);
        Faults current = faults;
        if (current.inOutage(uptime())) {
            stats.fault("outage");
            serviceUnavailable(exchange, true);
            return;
        }
        if (current.failAuth()) {
            stats.fault("auth");
            unauthorized(exchange);
            return;
        }
        String key = authenticate(exchange);
        if (key == null) {
            unauthorized(exchange);
            return;
        }
        KeyLimiter limiter = limiters.computeIfAbsent(key, k -> new KeyLimiter());

        JsonNode request;
        try {
            request = mapper.readTree(body);
        } catch (JsonProcessingException e) {
            badRequest(exchange, limiter, "We could not parse the JSON body of your request. (HINT: This likely means you "
                    + "aren't using your HTTP library correctly. The OpenAI API expects a JSON payload.)", null);
            return;
        }
        if (request == null || !request.isObject()) {
            badRequest(exchange, limiter, "The request body must be a JSON object.", null);
            return;
        }
        JsonNode model = request.get("model");
        if (model == null || !model.isTextual() || model.asText().isBlank()) {
            badRequest(exchange, limiter, "you must provide a model parameter", "model");
            return;
        }
        if (!model.asText().equals(config.model())) {
            setHeaders(exchange, limiter.snapshot());
            sendError(exchange, 404, "The model `" + model.asText() + "` does not exist or you do not have access to it.",
                    "invalid_request_error", null, "model_not_found", true);
            return;
        }
        List<ChatMessage> messages = parseMessages(request.get("messages"));
        if (messages == null) {
            badRequest(exchange, limiter, "'messages' must be a non-empty array of objects with a string 'role' and a "
                    + "'content'.", "messages");
            return;
        }
        int maxTokens;
        JsonNode maxNode = request.hasNonNull("max_completion_tokens")
                ? request.get("max_completion_tokens") : request.get("max_tokens");
        boolean maxGiven = maxNode != null && !maxNode.isNull();
        if (!maxGiven) {
            maxTokens = config.defaultMaxTokens();
        } else if (maxNode.canConvertToInt() && maxNode.isIntegralNumber() && maxNode.intValue() >= 1) {
            maxTokens = maxNode.intValue();
        } else {
            badRequest(exchange, limiter, "Invalid 'max_tokens': expected an integer >= 1, got " + maxNode + ".",
                    request.hasNonNull("max_completion_tokens") ? "max_completion_tokens" : "max_tokens");
            return;
        }

        // The context window is checked with the simulator's own count, before admission: a refused
        // request is never charged. Without max_tokens only the messages must fit, and the completion
        // gets what is left of the window (at most defaultMaxTokens).
        int promptTokens = tokenCounter.countChat(messages);
        long contextLimit = config.contextTokens();
        if (maxGiven ? (long) promptTokens + maxTokens > contextLimit : promptTokens >= contextLimit) {
            contextLengthExceeded(exchange, limiter, promptTokens, maxGiven ? maxTokens : null);
            return;
        }
        if (!maxGiven) {
            maxTokens = (int) Math.min(maxTokens, contextLimit - promptTokens);
        }

        Fault fault = drawFault(current);
        switch (fault) {
            case HTTP_500 -> {
                stats.fault("500");
                sendError(exchange, 500, "The server had an error while processing your request. Sorry about that!",
                        "server_error", null, null, true);
                return;
            }
            case HTTP_503 -> {
                stats.fault("503");
                serviceUnavailable(exchange, true);
                return;
            }
            case HTTP_529 -> {
                stats.fault("529");
                sendError(exchange, 529, "Overloaded", "overloaded_error", null, null, true);
                return;
            }
            case HANG -> {
                stats.fault("hang");
                hang(exchange);
                return;
            }
            default -> {
                // a 200 (possibly malformed or missing an item) after the rate limits
            }
        }

        long cost = (long) promptTokens + maxTokens;
        Admission admission = limiter.admit(cost);
        if (!admission.admitted()) {
            rateLimited(exchange, admission, cost);
            return;
        }

        if (fault == Fault.MALFORMED) {
            stats.fault("malformed");
        } else if (fault == Fault.MISSING_ITEM) {
            stats.fault("missing-item");
        }
        Answer answer = answer(messages, request, maxTokens, fault);
        stats.admitted(cost, promptTokens, answer.completionTokens());
        long latencyMs = latencyMs(answer.completionTokens());

        ObjectNode completion = mapper.createObjectNode();
        completion.put("id", "chatcmpl-sim-" + completionIds.incrementAndGet());
        completion.put("object", "chat.completion");
        completion.put("created", System.currentTimeMillis() / 1000);
        completion.put("model", config.model());
        ObjectNode choice = completion.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", answer.content()).putNull("refusal");
        choice.putNull("logprobs");
        choice.put("finish_reason", answer.finishReason());
        completion.putObject("usage")
                .put("prompt_tokens", promptTokens)
                .put("completion_tokens", answer.completionTokens())
                .put("total_tokens", promptTokens + answer.completionTokens());
        completion.put("system_fingerprint", "fp_quotaflow_sim");
        byte[] responseBody = mapper.writeValueAsBytes(completion);

        Map<String, String> headers = new LinkedHashMap<>(admission.headers());
        headers.put("openai-processing-ms", Long.toString(latencyMs));
        stats.inFlight(+1);
        Runnable respond = () -> {
            stats.inFlight(-1);
            send(exchange, 200, headers, responseBody, true);
        };
        try {
            answerScheduler.schedule(respond, latencyMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
            stats.inFlight(-1);
            exchange.close();
        }
    }

    // ---------------------------------------------------------------- faults

    /** What one fault draw picked. */
    private enum Fault { NONE, HTTP_500, HTTP_503, HTTP_529, HANG, MALFORMED, MISSING_ITEM }

    /** One uniform draw over the exclusive fault probabilities; no draw at all when they are all 0. */
    private Fault drawFault(Faults f) {
        if (f.probabilitySum() <= 0) {
            return Fault.NONE;
        }
        double u = random.nextDouble();
        double edge = f.p500();
        if (u < edge) {
            return Fault.HTTP_500;
        }
        edge += f.p503();
        if (u < edge) {
            return Fault.HTTP_503;
        }
        edge += f.p529();
        if (u < edge) {
            return Fault.HTTP_529;
        }
        edge += f.pHang();
        if (u < edge) {
            return Fault.HANG;
        }
        edge += f.pMalformed();
        if (u < edge) {
            return Fault.MALFORMED;
        }
        edge += f.pMissingItem();
        return u < edge ? Fault.MISSING_ITEM : Fault.NONE;
    }

    private void serviceUnavailable(HttpExchange exchange, boolean counted) {
        sendError(exchange, 503, "The server is overloaded or not ready yet.", "server_error", null, null, counted);
    }

    /**
     * Never answers: the exchange is parked on the answer timer and its connection closed after
     * {@link #HANG}, so no handler thread waits for it.
     */
    private void hang(HttpExchange exchange) {
        stats.inFlight(+1);
        Runnable drop = () -> {
            stats.inFlight(-1);
            exchange.close();
        };
        try {
            answerScheduler.schedule(drop, HANG.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
            stats.inFlight(-1);
            exchange.close();
        }
    }

    private void postFaults(HttpExchange exchange) throws IOException {
        byte[] body = readBody(exchange);
        Faults parsed;
        try {
            parsed = faultsFromJson(mapper.readTree(body));
        } catch (JsonProcessingException e) {
            sendError(exchange, 400, "The body must be a JSON object of faults: " + e.getOriginalMessage(),
                    "invalid_request_error", null, null, false);
            return;
        } catch (IllegalArgumentException e) {
            sendError(exchange, 400, e.getMessage(), "invalid_request_error", null, null, false);
            return;
        }
        setFaults(parsed);
        send(exchange, 200, Map.of(), mapper.writeValueAsBytes(faultsToJson(parsed)), false);
    }

    private static final List<String> FAULT_FIELDS =
            List.of("p500", "p503", "p529", "pMalformed", "pMissingItem", "pHang", "outages", "failAuth");

    /**
     * {@code {"p500":0.1,...,"outages":["30:90"],"failAuth":false}}: the JSON form of
     * {@code GET /admin/faults}, which {@code POST /admin/faults} accepts back.
     */
    static ObjectNode faultsToJson(Faults f) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("p500", f.p500());
        json.put("p503", f.p503());
        json.put("p529", f.p529());
        json.put("pMalformed", f.pMalformed());
        json.put("pMissingItem", f.pMissingItem());
        json.put("pHang", f.pHang());
        ArrayNode outages = json.putArray("outages");
        f.outages().forEach(o -> outages.add(o.toString()));
        json.put("failAuth", f.failAuth());
        return json;
    }

    /**
     * Faults from their JSON form; fields left out are off. Outages are {@code "START:END"}
     * strings or {@code {"start":S,"end":E}} objects, in seconds from the simulator's start.
     *
     * @throws IllegalArgumentException for an unknown field, a wrong type or an invalid value
     */
    static Faults faultsFromJson(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException("The body must be a JSON object with some of the fields " + FAULT_FIELDS);
        }
        json.fieldNames().forEachRemaining(name -> {
            if (!FAULT_FIELDS.contains(name)) {
                throw new IllegalArgumentException("Unknown fault field '" + name + "'; known fields: " + FAULT_FIELDS);
            }
        });
        Faults.Builder b = Faults.builder()
                .p500(probability(json, "p500")).p503(probability(json, "p503")).p529(probability(json, "p529"))
                .pMalformed(probability(json, "pMalformed")).pMissingItem(probability(json, "pMissingItem"))
                .pHang(probability(json, "pHang"));
        JsonNode outages = json.get("outages");
        if (outages != null && !outages.isNull()) {
            if (!outages.isArray()) {
                throw new IllegalArgumentException("'outages' must be an array of \"START:END\" strings");
            }
            for (JsonNode o : outages) {
                if (o.isTextual()) {
                    Outage outage = Outage.parse(o.asText());
                    b.outage(outage.start(), outage.end());
                } else if (o.isObject() && o.path("start").isNumber() && o.path("end").isNumber()) {
                    Outage outage = Outage.parse(
                            o.get("start").decimalValue().toPlainString() + ":" + o.get("end").decimalValue().toPlainString());
                    b.outage(outage.start(), outage.end());
                } else {
                    throw new IllegalArgumentException("an outage must be a \"START:END\" string or {\"start\":S,\"end\":E}: " + o);
                }
            }
        }
        JsonNode failAuth = json.get("failAuth");
        if (failAuth != null && !failAuth.isNull()) {
            if (!failAuth.isBoolean()) {
                throw new IllegalArgumentException("'failAuth' must be true or false: " + failAuth);
            }
            b.failAuth(failAuth.booleanValue());
        }
        return b.build();
    }

    private static double probability(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            return 0;
        }
        if (!value.isNumber()) {
            throw new IllegalArgumentException("'" + field + "' must be a number in [0, 1]: " + value);
        }
        return value.doubleValue();
    }

    /** Role/content pairs, or null when {@code node} is not a non-empty array of messages. */
    private static List<ChatMessage> parseMessages(JsonNode node) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            return null;
        }
        List<ChatMessage> messages = new ArrayList<>(node.size());
        for (JsonNode message : node) {
            if (!message.isObject() || !message.path("role").isTextual()) {
                return null;
            }
            JsonNode content = message.get("content");
            String text;
            if (content == null || content.isNull()) {
                text = "";
            } else if (content.isTextual()) {
                text = content.asText();
            } else if (content.isArray()) {
                // content parts: [{"type":"text","text":"..."}, ...]
                StringBuilder joined = new StringBuilder();
                for (JsonNode part : content) {
                    if (part.path("text").isTextual()) {
                        joined.append(part.path("text").asText());
                    }
                }
                text = joined.toString();
            } else {
                return null;
            }
            messages.add(new ChatMessage(message.get("role").asText(), text));
        }
        return messages;
    }

    private record Answer(String content, int completionTokens, String finishReason) {
    }

    private Answer answer(List<ChatMessage> messages, JsonNode request, int maxTokens, Fault fault) throws IOException {
        String userContent = "";
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                userContent = messages.get(i).content();
                break;
            }
        }
        JsonNode itemProperties = request.path("response_format").path("json_schema").path("schema")
                .path("properties").path("results").path("items").path("properties");
        List<String> categories = enumValues(itemProperties.path("category").path("enum"));
        List<String> urgencies = enumValues(itemProperties.path("urgency").path("enum"));

        ObjectNode document = mapper.createObjectNode();
        ArrayNode results = document.putArray("results");
        for (Ticket ticket : tickets(userContent)) {
            if (!config.classify()) {
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
            // cut in the middle: unbalanced braces, so no lenient parser can recover an object
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

    private record Ticket(String id, String subject, String body) {
    }

    /**
     * The tickets of the user message: {@code {"tickets":[{"id","subject","body"}...]}}, or, when
     * the content is not that, every {@code "id": "..."} found in it with the text up to the next
     * id as its body.
     */
    private List<Ticket> tickets(String content) {
        List<Ticket> tickets = new ArrayList<>();
        try {
            JsonNode doc = mapper.readTree(content);
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

    private String unescape(String jsonStringBody) {
        try {
            return mapper.readValue("\"" + jsonStringBody + "\"", String.class);
        } catch (JsonProcessingException e) {
            return jsonStringBody;
        }
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

    /** base + per-token × tokens, scaled by a uniform factor in [1 − jitter, 1 + jitter]. */
    private long latencyMs(int completionTokens) {
        double nominal = config.baseLatencyMs() + config.perCompletionTokenMs() * completionTokens;
        double factor = 1 + config.latencyJitter() * (2 * random.nextDouble() - 1);
        return Math.max(0, Math.round(nominal * factor));
    }

    // ---------------------------------------------------------------- authentication

    /** The bearer key when it is accepted, else null. */
    private String authenticate(HttpExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header == null) {
            return null;
        }
        header = header.strip();
        if (header.length() < 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String key = header.substring(7).strip();
        if (key.isEmpty()) {
            return null;
        }
        if (acceptedKeys.isEmpty()) {
            return key;
        }
        byte[] presented = key.getBytes(StandardCharsets.UTF_8);
        boolean match = false;
        for (byte[] accepted : acceptedKeys) {
            match |= MessageDigest.isEqual(presented, accepted);
        }
        return match ? key : null;
    }

    private void unauthorized(HttpExchange exchange) {
        unauthorized(exchange, true);
    }

    private void unauthorized(HttpExchange exchange, boolean counted) {
        // Never echo the presented key, not even masked.
        sendError(exchange, 401, "Incorrect API key provided. You can find your API key at "
                + "https://platform.openai.com/account/api-keys.", "invalid_request_error", null, "invalid_api_key",
                counted);
    }

    /** A 400 after authentication: carries the key's rate-limit headers, unchanged (nothing is charged). */
    private void badRequest(HttpExchange exchange, KeyLimiter limiter, String message, String param) {
        setHeaders(exchange, limiter.snapshot());
        sendError(exchange, 400, message, "invalid_request_error", param, null, true);
    }

    /**
     * 400 {@code context_length_exceeded}, in OpenAI's words, with the key's rate-limit headers as
     * they are: the request is refused before admission and charged nothing.
     *
     * @param maxTokens the request's max_tokens, or null when it gave none (then only the messages
     *                  were too long)
     */
    private void contextLengthExceeded(HttpExchange exchange, KeyLimiter limiter, int promptTokens, Integer maxTokens) {
        long requested = (long) promptTokens + (maxTokens == null ? config.defaultMaxTokens() : maxTokens);
        stats.contextRefused(requested);
        String message = maxTokens == null
                ? "This model's maximum context length is " + config.contextTokens() + " tokens. However, your "
                        + "messages resulted in " + promptTokens + " tokens. Please reduce the length of the messages."
                : "This model's maximum context length is " + config.contextTokens() + " tokens. However, you "
                        + "requested " + ((long) promptTokens + maxTokens) + " tokens (" + promptTokens
                        + " in the messages, " + maxTokens + " in the completion). Please reduce the length of the "
                        + "messages or completion.";
        setHeaders(exchange, limiter.snapshot());
        sendError(exchange, 400, message, "invalid_request_error", "messages", "context_length_exceeded", true);
    }

    private static void setHeaders(HttpExchange exchange, Map<String, String> headers) {
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    }

    // ---------------------------------------------------------------- rate limits

    private void rateLimited(HttpExchange exchange, Admission admission, long cost) {
        Map<String, String> headers = new LinkedHashMap<>(admission.headers());
        boolean tokens = admission.limitedBy().equals("tokens");
        String window = tokens ? "tokens per min (TPM)" : "requests per min (RPM)";
        long limit = tokens ? config.tpm() : config.rpm();
        long requested = tokens ? cost : 1;
        String message;
        if (admission.tooLarge()) {
            stats.tooLarge();
            message = "Request too large for " + config.model() + " in organization " + ORGANIZATION + " on " + window
                    + ": Limit " + limit + ", Requested " + requested + ". The input or output tokens must be reduced "
                    + "in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.";
        } else {
            Duration wait = ceilToMillis(admission.retryAfter());
            long waitMs = Math.max(1, wait.toMillis());
            headers.put("retry-after-ms", Long.toString(waitMs));
            headers.put("retry-after", Long.toString((waitMs + 999) / 1000));
            message = "Rate limit reached for " + config.model() + " in organization " + ORGANIZATION + " on " + window
                    + ": Limit " + limit + ", Used " + admission.used() + ", Requested " + requested
                    + ". Please try again in " + GoDuration.format(Duration.ofMillis(waitMs))
                    + ". Visit https://platform.openai.com/account/rate-limits to learn more.";
        }
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        sendError(exchange, 429, message, admission.limitedBy(), null, "rate_limit_exceeded", true);
    }

    private static Duration ceilToMillis(Duration d) {
        Duration floor = Duration.ofMillis(d.toMillis());
        return floor.equals(d) ? d : floor.plusMillis(1);
    }

    /** Outcome of an admission check, with the rate-limit headers as of that moment. */
    private record Admission(boolean admitted, String limitedBy, boolean tooLarge, long used, Duration retryAfter,
                             Map<String, String> headers) {
    }

    /**
     * The two buckets of one API key, checked and debited together under the limiter's lock. They
     * start at {@link SimulatorConfig#startLevel()} of their capacity (full by default) when the
     * key's first authenticated request arrives.
     */
    private final class KeyLimiter {
        private final SimBucket requests =
                new SimBucket(config.rpm(), config.burstSeconds(), config.startLevel(), nanoClock);
        private final SimBucket tokens =
                new SimBucket(config.tpm(), config.burstSeconds(), config.startLevel(), nanoClock);

        /** The headers of an answer that charges nothing (400, 404): the buckets as they are. */
        synchronized Map<String, String> snapshot() {
            return headers();
        }

        synchronized Admission admit(long cost) {
            if (cost > config.tpm()) {
                return new Admission(false, "tokens", true, 0, Duration.ZERO, headers());
            }
            boolean requestOk = requests.canTake(1);
            boolean tokensOk = tokens.canTake(cost);
            if (requestOk && tokensOk) {
                // Debit the estimate (prompt + max_tokens) now and never refund the unused part of
                // max_tokens afterwards: OpenAI does not refund either, which is why a tight
                // max_tokens is throughput.
                requests.tryTake(1);
                tokens.tryTake(cost);
                return new Admission(true, null, false, 0, Duration.ZERO, headers());
            }
            Map<String, String> headers = headers();
            Duration requestWait = requests.timeUntilAvailable(1);
            Duration tokenWait = tokens.timeUntilAvailable(cost);
            boolean byRequests = !requestOk && (tokensOk || requestWait.compareTo(tokenWait) >= 0);
            // "Used" is what the message's reader can reconcile with the headers sent alongside:
            // limit − x-ratelimit-remaining-* of this very answer.
            long used = byRequests
                    ? config.rpm() - Long.parseLong(headers.get("x-ratelimit-remaining-requests"))
                    : config.tpm() - Long.parseLong(headers.get("x-ratelimit-remaining-tokens"));
            Duration wait = requestWait.compareTo(tokenWait) >= 0 ? requestWait : tokenWait;
            return new Admission(false, byRequests ? "requests" : "tokens", false, used, wait, headers);
        }

        /**
         * The six x-ratelimit-* headers: the configured per-minute limits, the buckets' levels now
         * (after this request's debit, if any) and the time until each is full again.
         */
        private Map<String, String> headers() {
            Map<String, String> h = new LinkedHashMap<>();
            h.put("x-ratelimit-limit-requests", Long.toString(config.rpm()));
            h.put("x-ratelimit-limit-tokens", Long.toString(config.tpm()));
            h.put("x-ratelimit-remaining-requests", Long.toString(requests.remaining()));
            h.put("x-ratelimit-remaining-tokens", Long.toString(tokens.remaining()));
            h.put("x-ratelimit-reset-requests", GoDuration.format(ceilToMillis(requests.timeUntilFull())));
            h.put("x-ratelimit-reset-tokens", GoDuration.format(ceilToMillis(tokens.timeUntilFull())));
            return h;
        }
    }

    // ---------------------------------------------------------------- I/O

    private static final class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;
    }

    private static byte[] readBody(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (out.size() + n > MAX_BODY_BYTES) {
                    throw new BodyTooLargeException();
                }
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        }
    }

    private void sendError(HttpExchange exchange, int status, String message, String type, String param, String code,
                           boolean counted) {
        ObjectNode body = mapper.createObjectNode();
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.put("param", param);
        error.put("code", code);
        byte[] bytes;
        try {
            bytes = mapper.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            bytes = "{\"error\":{\"message\":\"internal error\"}}".getBytes(StandardCharsets.UTF_8);
        }
        send(exchange, status, Map.of(), bytes, counted);
    }

    /**
     * Sends a JSON answer and closes the exchange.
     *
     * @param counted whether the answer belongs to a chat-completion request and counts in the stats
     */
    private void send(HttpExchange exchange, int status, Map<String, String> headers, byte[] body, boolean counted) {
        if (counted) {
            stats.answered(status);
        }
        try {
            headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            exchange.getResponseHeaders().set("content-type", "application/json");
            exchange.getResponseHeaders().set("x-request-id", "req-sim-" + Long.toHexString(random.nextLong()));
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } catch (IOException e) {
            LOG.debug("Provider simulator: could not answer {} (client gone?): {}", exchange.getRequestURI(), e.toString());
        } finally {
            exchange.close();
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

    // ---------------------------------------------------------------- statistics

    private final class Stats {
        private final Map<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
        private final Map<String, AtomicLong> faultCounts = new ConcurrentHashMap<>();
        private final AtomicLong total = new AtomicLong();
        private final AtomicLong inFlight = new AtomicLong();
        private final AtomicLong admitted = new AtomicLong();
        private final AtomicLong prompt = new AtomicLong();
        private final AtomicLong completion = new AtomicLong();
        private final AtomicLong tokensAdmitted = new AtomicLong();
        private final AtomicLong contextRefusals = new AtomicLong();
        private final AtomicLong contextRefusedTokens = new AtomicLong();
        private final AtomicLong tooLarge = new AtomicLong();
        /** epoch second → {requests, tokensAdmitted, prompt, completion}; guarded by itself. */
        private final TreeMap<Long, long[]> perSecond = new TreeMap<>();
        private volatile long startedAtEpochMs = System.currentTimeMillis();

        void arrived() {
            total.incrementAndGet();
        }

        void fault(String kind) {
            faultCounts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
        }

        void answered(int status) {
            byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
        }

        void contextRefused(long requestedTokens) {
            contextRefusals.incrementAndGet();
            contextRefusedTokens.addAndGet(requestedTokens);
        }

        void tooLarge() {
            tooLarge.incrementAndGet();
        }

        void inFlight(int delta) {
            inFlight.addAndGet(delta);
        }

        void admitted(long cost, int promptTokens, int completionTokens) {
            admitted.incrementAndGet();
            tokensAdmitted.addAndGet(cost);
            prompt.addAndGet(promptTokens);
            completion.addAndGet(completionTokens);
            long second = System.currentTimeMillis() / 1000;
            synchronized (perSecond) {
                long[] s = perSecond.computeIfAbsent(second, k -> new long[4]);
                s[0]++;
                s[1] += cost;
                s[2] += promptTokens;
                s[3] += completionTokens;
                while (perSecond.size() > MAX_SECONDS_KEPT) {
                    perSecond.pollFirstEntry();
                }
            }
        }

        void reset() {
            synchronized (perSecond) {
                byStatus.clear();
                faultCounts.clear();
                total.set(0);
                inFlight.set(0);
                admitted.set(0);
                prompt.set(0);
                completion.set(0);
                tokensAdmitted.set(0);
                contextRefusals.set(0);
                contextRefusedTokens.set(0);
                tooLarge.set(0);
                perSecond.clear();
                startedAtEpochMs = System.currentTimeMillis();
            }
        }

        SimulatorStats snapshot() {
            synchronized (perSecond) {
                Map<String, Long> statuses = new TreeMap<>();
                byStatus.forEach((status, n) -> statuses.put(Integer.toString(status), n.get()));
                Map<String, Long> injected = new TreeMap<>();
                faultCounts.forEach((kind, n) -> injected.put(kind, n.get()));
                List<SimulatorStats.Second> seconds = new ArrayList<>(perSecond.size());
                perSecond.forEach((second, s) -> seconds.add(new SimulatorStats.Second(second, s[0], s[1], s[2], s[3])));
                return new SimulatorStats(config.model(), config.rpm(), config.tpm(), config.burstSeconds(),
                        startedAtEpochMs, System.currentTimeMillis(), total.get(), Math.max(0, inFlight.get()),
                        statuses, statuses.getOrDefault("429", 0L), admitted.get(), prompt.get(), completion.get(),
                        tokensAdmitted.get(), injected, seconds, config.resolvedTokenizer().id(),
                        config.contextTokens(), config.startLevel(), contextRefusals.get(), contextRefusedTokens.get(),
                        tooLarge.get());
            }
        }
    }
}
