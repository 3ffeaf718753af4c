package io.quotaflow.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * {@code POST /v1/chat/completions} as a decision: given the body and the {@code Authorization}
 * header, what to answer ({@link Reply}). In order: an outage window of every model (503),
 * {@code failAuth} (401), the key (401, checked against the keys of the model the body names, or
 * the default model's), the request checks (400, 404 for a model not served), the model being down
 * (its own outage window: 503; {@link ProviderSimulator#setDown(String, int)}: the chosen status),
 * the model's context window (400), one fault draw (500, 503, 529, hang), the key's buckets on that
 * model (429), then the answer after a simulated latency (or, for a stall-body fault, half of it). Every answer after authentication but
 * before the model is known to be down carries the key's rate-limit headers for the model asked for
 * (the default model's when the body names no served model). Nothing here reads a clock other than
 * the injected {@link SimClock}, and nothing touches HTTP.
 */
final class ChatCompletions {

    private final ObjectMapper mapper = new ObjectMapper();
    private final SimulatorConfig config;
    private final SimClock clock;
    private final long startNanos;
    private final Supplier<Faults> faults;
    private final StatsRecorder stats;
    private final Random random;
    /** Every served model by name, the default one first. */
    private final Map<String, ServedModel> models = new LinkedHashMap<>();
    private final ServedModel defaultModel;
    private final AtomicLong completionIds = new AtomicLong();
    /** The engine's running calls ({@link SimulatorConfig#engine()}), or null for a rate-limited provider. */
    private final EngineLoad engine;

    /**
     * @param startNanos the simulator's start on {@code clock}: outage windows are relative to it
     * @param faults     the faults in force, read once per request
     * @param random     the simulator's seeded source (fault draws, dropped items, latency jitter)
     */
    ChatCompletions(SimulatorConfig config, SimClock clock, long startNanos, Supplier<Faults> faults, StatsRecorder stats,
                    Random random) {
        this.config = config;
        this.clock = clock;
        this.startNanos = startNanos;
        this.faults = faults;
        this.stats = stats;
        this.random = random;
        for (ModelSpec spec : config.models()) {
            models.put(spec.name(), new ServedModel(spec, config, clock.nanoSupplier(), stats.model(spec.name()), random));
        }
        this.defaultModel = models.get(config.model());
        this.engine = config.engine().map(EngineLoad::new).orElse(null);
    }

    /** The engine's load, when the simulator is an engine. */
    Optional<EngineLoad> engine() {
        return Optional.ofNullable(engine);
    }

    /** Forgets every key: their buckets start afresh on their next request. */
    void forgetKeys() {
        models.values().forEach(ServedModel::forgetKeys);
    }

    /** The served model {@code name}. */
    ServedModel model(String name) {
        ServedModel model = models.get(name);
        if (model == null) {
            throw new IllegalArgumentException("the simulator does not serve model '" + name + "'; it serves " + models.keySet());
        }
        return model;
    }

    /** The answer to one request, whose arrival the caller has counted. */
    Reply handle(byte[] body, String authorization) throws JsonProcessingException {
        return handle(body, authorization, false);
    }

    /**
     * The answer to one line of a batch job ({@link SimBatches}): as the endpoint's, but outside the key's
     * per-minute buckets (the Batch API has its own limits), so never a 429.
     */
    Reply batchLine(byte[] body, String authorization) throws JsonProcessingException {
        return handle(body, authorization, true);
    }

    private Reply handle(byte[] body, String authorization, boolean batch) throws JsonProcessingException {
        Faults current = faults.get();
        if (current.inOutage(clock.since(startNanos))) {
            stats.fault("outage");
            return OpenAiErrors.serviceUnavailable(true);
        }
        if (current.failAuth()) {
            stats.fault("auth");
            return OpenAiErrors.unauthorized(true);
        }
        RequestCheck check = RequestChecker.check(body, config);
        Optional<String> named = check instanceof RequestCheck.Valid ? Optional.of(((RequestCheck.Valid) check).request().model())
                : check instanceof RequestCheck.Invalid ? ((RequestCheck.Invalid) check).model() : Optional.empty();
        ServedModel model = named.map(models::get).orElse(defaultModel);
        Reply reply = decide(check, model, authorization, current, batch);
        if (engine != null) {
            // a self-hosted engine knows nothing of rate limits: no x-ratelimit-* header on any answer
            reply = withoutRateLimitHeaders(reply);
        }
        if (named.isPresent()) {
            model.counters().answered(status(reply));
        }
        return reply;
    }

    private Reply decide(RequestCheck check, ServedModel model, String authorization, Faults current, boolean batch)
            throws JsonProcessingException {
        Optional<String> key = model.authenticate(authorization);
        if (key.isEmpty()) {
            return OpenAiErrors.unauthorized(true);
        }
        KeyLimiter limiter = model.limiter(key.get());
        if (check instanceof RequestCheck.Invalid) {
            RequestCheck.Invalid invalid = (RequestCheck.Invalid) check;
            return OpenAiErrors.badRequest(invalid.message(), invalid.param(), limiter.snapshot());
        }
        if (check instanceof RequestCheck.UnknownModel) {
            return OpenAiErrors.modelNotFound(((RequestCheck.UnknownModel) check).model(), limiter.snapshot());
        }
        String name = model.spec().name();
        if (current.inOutage(name, clock.since(startNanos))) {
            stats.fault("outage");
            model.counters().down();
            return OpenAiErrors.serviceUnavailable(true);
        }
        OptionalInt down = model.down();
        if (down.isPresent()) {
            stats.fault("down");
            model.counters().down();
            return OpenAiErrors.down(name, down.getAsInt());
        }
        return admitted(((RequestCheck.Valid) check).request(), model, current, batch ? null : limiter);
    }

    private static int status(Reply reply) {
        if (reply instanceof Reply.Now) {
            return ((Reply.Now) reply).status();
        }
        return reply instanceof Reply.Later || reply instanceof Reply.Stalled ? 200 : 0;
    }

    /** An authenticated, valid request; {@code limiter} null: a batch line, outside the key's buckets. */
    private Reply admitted(ChatRequest request, ServedModel model, Faults current, KeyLimiter limiter)
            throws JsonProcessingException {
        ModelSpec spec = model.spec();
        // The context window is checked with the simulator's own count, before admission: a refused
        // request is never charged. Without max_tokens only the messages must fit, and the completion
        // gets what is left of the window (at most defaultMaxTokens).
        int promptTokens = model.tokenCounter().countChat(request.messages());
        long contextLimit = spec.contextTokens();
        int maxTokens = request.maxTokens();
        if (request.maxGiven() ? (long) promptTokens + maxTokens > contextLimit : promptTokens >= contextLimit) {
            Integer given = request.maxGiven() ? maxTokens : null;
            stats.contextRefused((long) promptTokens + (given == null ? config.defaultMaxTokens() : given));
            model.counters().contextRefused();
            return OpenAiErrors.contextLengthExceeded(spec.contextTokens(), promptTokens, given,
                    snapshot(limiter));
        }
        if (!request.maxGiven()) {
            maxTokens = (int) Math.min(maxTokens, contextLimit - promptTokens);
        }

        Fault fault = drawFor(current, limiter);
        Reply failure = failure(fault);
        if (failure != null) {
            return failure;
        }

        // what the token bucket is debited: the prompt and max_tokens, or the prompt only
        long cost = (long) promptTokens + (config.chargesMaxTokens() ? maxTokens : 0);
        Reply reply = engine != null ? engineRun(request, model, fault, promptTokens, maxTokens, cost)
                : limited(request, model, fault, limiter, promptTokens, maxTokens, cost);
        return stalled(fault, reply);
    }

    /** One fault draw; a batch line ({@code limiter} null) is answered into the output file: nothing to stall. */
    private Fault drawFor(Faults current, KeyLimiter limiter) {
        Fault drawn = Fault.draw(current, random);
        return drawn == Fault.STALL_BODY && limiter == null ? Fault.NONE : drawn;
    }

    /** {@code reply} sent half then stalled when the draw says so and it is an answer. */
    private static Reply stalled(Fault fault, Reply reply) {
        return fault == Fault.STALL_BODY && reply instanceof Reply.Later later ? new Reply.Stalled(later) : reply;
    }

    /** A rate-limited provider's answer: the key's buckets admit the call (or refuse it with a 429). */
    private Reply limited(ChatRequest request, ServedModel model, Fault fault, KeyLimiter limiter, int promptTokens, int maxTokens,
                          long cost) throws JsonProcessingException {
        ModelSpec spec = model.spec();
        Admission admission = admit(limiter, cost);
        if (!(admission instanceof Admission.Admitted)) {
            if (admission instanceof Admission.TooLarge) {
                stats.tooLarge();
            }
            return OpenAiErrors.rateLimited(spec, admission, cost);
        }
        if (fault != Fault.NONE) {
            stats.fault(fault.statsName());
        }
        AnswerBuilder.Answer answer = model.answers().answer(request, maxTokens, fault);
        stats.admitted(cost, promptTokens, answer.completionTokens());
        model.counters().admitted(cost, promptTokens, answer.completionTokens());
        long latencyMs = latencyMs(answer.completionTokens());

        Map<String, String> headers = new LinkedHashMap<>(admission.headers());
        headers.put("openai-processing-ms", Long.toString(latencyMs));
        return new Reply.Later(headers, completion(spec.name(), promptTokens, answer), latencyMs,
                atAnswer(limiter));
    }

    /** The key's headers now; none for a batch line. */
    private static Map<String, String> snapshot(KeyLimiter limiter) {
        return limiter == null ? Map.of() : limiter.snapshot();
    }

    /** The key's buckets' verdict on {@code cost}; a batch line is outside them. */
    private static Admission admit(KeyLimiter limiter, long cost) {
        return limiter == null ? new Admission.Admitted(Map.of()) : limiter.admit(cost);
    }

    /** Where an answer's headers come from when it is sent, if not from its admission. */
    private java.util.function.Supplier<Map<String, String>> atAnswer(KeyLimiter limiter) {
        return config.headersAt() == HeaderMoment.ANSWER && limiter != null ? limiter::snapshot : null;
    }

    /**
     * An engine's answer: refused at once when {@link EngineMode#maxRunning()} calls run, else
     * answered after the usual latency stretched by the engine's load ({@link EngineMode#slowdown}).
     */
    private Reply engineRun(ChatRequest request, ServedModel model, Fault fault, int promptTokens, int maxTokens, long cost)
            throws JsonProcessingException {
        int running = engine.tryStart();
        long atMs = clock.since(startNanos).toMillis();
        if (running == 0) {
            engine.refused(atMs);
            stats.fault("overloaded");
            EngineMode mode = engine.mode();
            return mode.refusalStatus() == 429
                    ? new Reply.Now(429, Map.of(), EngineMode.OVERLOADED_BODY.getBytes(java.nio.charset.StandardCharsets.UTF_8), true)
                    : OpenAiErrors.serviceUnavailable(true);
        }
        if (fault != Fault.NONE) {
            stats.fault(fault.statsName());
        }
        AnswerBuilder.Answer answer = model.answers().answer(request, maxTokens, fault);
        stats.admitted(cost, promptTokens, answer.completionTokens());
        model.counters().admitted(cost, promptTokens, answer.completionTokens());
        long latencyMs = Math.round(latencyMs(answer.completionTokens()) * engine.mode().slowdown(running));
        engine.log(atMs, running, latencyMs);
        return new Reply.Later(Map.of(), completion(model.spec().name(), promptTokens, answer), latencyMs, null, engine::finish);
    }

    private static Reply withoutRateLimitHeaders(Reply reply) {
        if (reply instanceof Reply.Now now) {
            Map<String, String> kept = new LinkedHashMap<>(now.headers());
            kept.keySet().removeIf(n -> n.toLowerCase(java.util.Locale.ROOT).startsWith("x-ratelimit-"));
            return new Reply.Now(now.status(), kept, now.body(), now.counted());
        }
        return reply;
    }

    /** The answer of a fault drawn before the rate limits, or null when the request goes on to them. */
    private Reply failure(Fault fault) {
        switch (fault) {
            case HTTP_500:
                stats.fault(fault.statsName());
                return OpenAiErrors.error(500, "The server had an error while processing your request. Sorry about that!",
                        "server_error", null, null, Map.of(), true);
            case HTTP_503:
                stats.fault(fault.statsName());
                return OpenAiErrors.serviceUnavailable(true);
            case HTTP_529:
                stats.fault(fault.statsName());
                return OpenAiErrors.error(529, "Overloaded", "overloaded_error", null, null, Map.of(), true);
            case HANG:
                stats.fault(fault.statsName());
                return new Reply.Hang();
            default:
                // a 200 (possibly malformed or missing an item) after the rate limits
                return null;
        }
    }

    private byte[] completion(String modelName, int promptTokens, AnswerBuilder.Answer answer) throws JsonProcessingException {
        ObjectNode completion = mapper.createObjectNode();
        completion.put("id", "chatcmpl-sim-" + completionIds.incrementAndGet());
        completion.put("object", "chat.completion");
        completion.put("created", Math.floorDiv(clock.epochMs(), 1000L));
        completion.put("model", modelName);
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
        return mapper.writeValueAsBytes(completion);
    }

    /** base + per-token × tokens, scaled by a uniform factor in [1 − jitter, 1 + jitter]. */
    private long latencyMs(int completionTokens) {
        double nominal = config.baseLatencyMs() + config.perCompletionTokenMs() * completionTokens;
        double factor = 1 + config.latencyJitter() * (2 * random.nextDouble() - 1);
        return Math.max(0, Math.round(nominal * factor));
    }
}
