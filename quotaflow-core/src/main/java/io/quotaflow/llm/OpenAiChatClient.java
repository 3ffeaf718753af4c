package io.quotaflow.llm;

import io.quotaflow.http.AnswerTooLargeException;
import io.quotaflow.http.BoundedBodies;
import io.quotaflow.http.BoundedCall;
import io.quotaflow.quota.RateLimitInfo;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.records.Json;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chat-completions client over {@link HttpClient#sendAsync}, in the route's dialect
 * ({@link ProviderDialect}: URL, credentials, headers, errors, usage): the caller's thread only
 * enqueues the request. Every answer is turned into a {@link ModelOutcome}; the API key is only
 * ever placed in the dialect's credential header, and every message kept from the provider (bodies,
 * exceptions, {@code Location}) goes through {@link io.quotaflow.settings.Secret#redact}: the key in any
 * case, masked or in part, and anything else shaped like a key. Redirects are not followed: a 3xx
 * means a wrong base URL and halts the route.
 *
 * <p>Every call is bounded ({@link BoundedCall}): connecting, the headers and the whole body within the
 * route's timeout ({@code llm.timeout}), an answer of at most {@link #MAX_ANSWER_BYTES}. A call past its
 * deadline is a {@link ModelOutcome.FailureKind#TIMEOUT} and its connection is closed; an answer past the cap
 * a {@link ModelOutcome.FailureKind#TRANSIENT} failure that names the cap, never the answer.
 */
public final class OpenAiChatClient implements ModelClient {

    static final int MAX_MESSAGE = 300;

    /**
     * The most bytes a chat answer may hold (4 MiB): far above any answer of a batch of tickets (a
     * completion of 16,000 tokens is under 100 KB), low enough that a runaway body cannot fill the heap.
     */
    public static final long MAX_ANSWER_BYTES = 4L * 1024 * 1024;

    private final ModelSettings settings;
    private final ProviderDialect dialect;
    private final AnswerValidator validator;
    private final HttpClient http;
    private final ExecutorService executor;
    private final Time time;

    public OpenAiChatClient(ModelSettings settings) {
        this(settings, Time.SYSTEM);
    }

    public OpenAiChatClient(ModelSettings settings, Time time) {
        this.settings = settings;
        this.dialect = ProviderDialect.of(settings.dialect());
        this.time = time;
        this.validator = new AnswerValidator(settings.categories(), settings.urgencies());
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "quotaflow-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        boolean https = "https".equalsIgnoreCase(settings.baseUrl().getScheme());
        this.http = HttpClient.newBuilder()
                .executor(executor)
                .version(https ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    @Override
    public CompletionStage<ModelOutcome> classify(ModelRequest request) {
        HttpRequest httpRequest;
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(dialect.chatUri(settings))
                    .timeout(settings.timeout())
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(request.prompt().body())));
            dialect.credentials(settings.apiKey()).forEach(builder::header);
            httpRequest = builder.build();
        } catch (IOException e) {
            return CompletableFuture.completedFuture(new ModelOutcome.Failed(ModelOutcome.FailureKind.NON_RETRYABLE, 0,
                    truncate("could not encode request: " + e.getMessage()), Optional.empty(), RateLimitInfo.EMPTY, 0));
        }
        long start = time.nanoseconds();
        CompletableFuture<HttpResponse<String>> sent;
        try {
            sent = BoundedCall.send(http, httpRequest, BoundedBodies.ofString(MAX_ANSWER_BYTES), settings.timeout());
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(transportFailure(e, 0));
        }
        return sent.handle((response, error) -> {
            long latencyMs = (time.nanoseconds() - start) / 1_000_000;
            if (error != null) {
                return transportFailure(error, latencyMs);
            }
            try {
                return interpret(response.statusCode(), response.headers(), response.body(), request, latencyMs);
            } catch (RuntimeException e) {
                return new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, response.statusCode(),
                        truncate("unreadable response: " + e), Optional.empty(), RateLimitInfo.EMPTY, latencyMs);
            }
        });
    }

    /** Maps an HTTP answer to an outcome (also a Batch API output line's, whose response is one). */
    public ModelOutcome interpret(int status, HttpHeaders headers, String body, ModelRequest request, long latencyMs) {
        RateLimitInfo limits = dialect.rateLimits(name -> headers.firstValue(name), java.time.Instant.ofEpochMilli(time.milliseconds()));
        if (status == 200) {
            return answered(body, request, limits, latencyMs);
        }
        if (status >= 300 && status < 400) {
            // redirects are not followed (a POST must not be replayed elsewhere with the key): the base URL is wrong
            String where = headers.firstValue("location").filter(l -> !l.isBlank())
                    .map(l -> "the base URL redirects to " + l.strip())
                    .orElse("the base URL redirects (HTTP " + status + ") without a Location header");
            return failed(ModelOutcome.FailureKind.HALT, status, where + "; fix llm.base-url", Optional.empty(), limits, latencyMs);
        }
        return dialect.error(new ErrorAnswer(status, limits, body, latencyMs, this::truncate));
    }

    private ModelOutcome answered(String body, ModelRequest request, RateLimitInfo limits, long latencyMs) {
        List<String> ids = request.prompt().wireIds();
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        } catch (IOException e) {
            root = null;
        }
        JsonNode choice = root == null ? null : root.path("choices").path(0);
        String content = choice == null ? null : text(choice.path("message"), "content");
        String finish = choice == null ? null : text(choice, "finish_reason");
        ProviderDialect.Usage usage = dialect.usage(root);
        long prompt = usage.promptTokens();
        long completion = usage.completionTokens();
        AnswerValidator.Validation v = validator.validate(content, ids, "length".equals(finish));
        // the answer names tickets by their ids in the request; the outcome by their keys
        Map<String, String> keys = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            keys.put(ids.get(i), request.items().get(i).id());
        }
        Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
        v.labels().forEach((id, label) -> labels.put(keys.get(id), label));
        Map<String, String> invalid = new LinkedHashMap<>();
        v.invalid().forEach((id, why) -> invalid.put(keys.get(id), settings.apiKey().redact(why)));
        return new ModelOutcome.Answered(labels, invalid, finish, prompt, completion, limits, latencyMs);
    }

    private ModelOutcome.Failed failed(ModelOutcome.FailureKind kind, int status, String message, Optional<Duration> hint,
                                       RateLimitInfo limits, long latencyMs) {
        return new ModelOutcome.Failed(kind, status, truncate(message), hint, limits, latencyMs);
    }

    private ModelOutcome transportFailure(Throwable error, long latencyMs) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof AnswerTooLargeException big) {
            // the provider answered, too much: retried like a 5xx; the body is never kept
            return new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, big.status(),
                    "answer not read: larger than " + big.limit() + " bytes (HTTP " + big.status() + ")", Optional.empty(),
                    RateLimitInfo.EMPTY, latencyMs);
        }
        String transport = TransportCause.of(cause);
        ModelOutcome.FailureKind kind = cause instanceof HttpTimeoutException ? ModelOutcome.FailureKind.TIMEOUT
                : ModelOutcome.FailureKind.TRANSIENT;
        String what = TransportCause.TIMEOUT.equals(transport) ? "timeout after " + settings.timeout().toMillis() + " ms"
                : "connection error: " + transport;
        return new ModelOutcome.Failed(kind, 0, truncate(what), Optional.empty(), RateLimitInfo.EMPTY, latencyMs, transport);
    }

    private String truncate(String message) {
        String text = (message == null ? "" : message).replaceAll("\\s+", " ").strip();
        // redacting a whole error page is wasted work: only the first few hundred characters are kept
        // (the margin keeps a key straddling the first cut out of the second)
        if (text.length() > 4 * MAX_MESSAGE) {
            text = text.substring(0, 4 * MAX_MESSAGE);
        }
        String safe = settings.apiKey().redact(text);
        return safe.length() > MAX_MESSAGE ? safe.substring(0, MAX_MESSAGE) + "..." : safe;
    }

    private static String text(JsonNode node, String field) {
        if (node == null) {
            return null;
        }
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
