package io.quotaflow.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.http.BoundedBodies;
import io.quotaflow.http.BoundedCall;
import io.quotaflow.records.Json;
import io.quotaflow.settings.ModelSettings;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The Batch API over {@link HttpClient#sendAsync}: the caller's thread only enqueues. Submitting a job
 * uploads its JSONL ({@code POST /files}, {@code purpose=batch}) and creates it ({@code POST /batches},
 * {@code completion_window=24h}, with {@code metadata} naming the job's key and scope); {@link #status}
 * polls it ({@code GET /batches/{id}}); {@link #lines} reads an output or error file line by line
 * ({@code GET /files/{id}/content}); {@link #list} pages through the provider's jobs ({@code GET
 * /batches}, bounded) and {@link #cancel} cancels one ({@code POST /batches/{id}/cancel}). A refused call
 * completes with a {@link Refused} (its status and body, for {@link BatchLines#failure}); a transport failure with its
 * exception. Every request is bounded as a whole ({@link BoundedCall}: connect, headers and body within
 * the route's {@code timeout}, an upload within 5 minutes at least, a file within 15), and so is every answer
 * ({@link BoundedBodies}: a JSON answer of at most 4 MiB; a file read line by line, each line at most 4 MiB,
 * never the whole file in memory); a call past its deadline or cap fails like a timeout, its connection closed.
 * The key only ever goes in the {@code Authorization} header. The HTTP client is made on first use: the
 * dispatchers of every task hold one per batch route, and only the owner's calls.
 */
public final class BatchApiClient implements BatchApi {

    /** How long an upload may take at least: a file of up to 200 MB. */
    private static final Duration UPLOAD_TIMEOUT = Duration.ofMinutes(5);
    /** How long reading an output or error file may take at least, as a whole (streamed line by line). */
    static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(15);
    /** The most bytes of a JSON answer (a job, a page of 100 jobs, a file's description). */
    static final long ANSWER_CAP = 4L * 1024 * 1024;
    /** The most bytes of one line of an output or error file (one chat completion's answer). */
    static final long LINE_CAP = 4L * 1024 * 1024;
    /** The most bytes of a refusal's body kept to read its reason. */
    static final long REFUSAL_CAP = 64L * 1024;

    /** The {@code metadata} field that names the job's key (its intent in the store). */
    public static final String METADATA_JOB = "quotaflow_job";
    /** The {@code metadata} field that names the quota scope the job is for. */
    public static final String METADATA_SCOPE = "quotaflow_scope";
    /** Jobs a page of {@code GET /batches} asks for (the provider's most). */
    static final int PAGE = 100;

    /**
     * A job as the provider describes it.
     *
     * @param errors      the first message of its {@code errors}, null for none
     * @param errorCode   the first code of its {@code errors} ({@code token_limit_exceeded}), null for none
     * @param jobKey      its {@code metadata.quotaflow_job}, null for none
     * @param jobScope    its {@code metadata.quotaflow_scope}, null for none
     * @param inputTokens its {@code usage.input_tokens}, the provider's own count; -1 when it reports none
     */
    public record Info(String id, BatchStatus status, String outputFileId, String errorFileId, String errors, String errorCode,
                       String jobKey, String jobScope, long inputTokens) {

        public Info(String id, BatchStatus status, String outputFileId, String errorFileId, String errors) {
            this(id, status, outputFileId, errorFileId, errors, null, null, null, -1);
        }
    }

    /** The provider answered a Batch API call with {@code status} (not 2xx). */
    public static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int status;
        private final transient String body;

        public Refused(int status, String body) {
            super("HTTP " + status);
            this.status = status;
            this.body = body;
        }

        public int status() {
            return status;
        }

        public String body() {
            return body;
        }
    }

    private final ModelSettings settings;
    private volatile HttpClient http;

    public BatchApiClient(ModelSettings settings) {
        this.settings = settings;
    }

    /** Uploads {@code jsonl} and creates a job of it; completes with the job as created. */
    @Override
    public CompletableFuture<Info> submit(byte[] jsonl, Map<String, String> metadata) {
        String boundary = "quotaflow-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream(jsonl.length + 512);
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n");
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"quotaflow-batch.jsonl\"\r\n"
                + "Content-Type: application/jsonl\r\n\r\n");
        body.writeBytes(jsonl);
        write(body, "\r\n--" + boundary + "--\r\n");
        HttpRequest upload = request("/files", max(settings.timeout(), UPLOAD_TIMEOUT))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
        return send(upload).thenCompose(file -> {
            String fileId = file.path("id").asText(null);
            if (fileId == null) {
                throw new Refused(502, "the file upload named no file id");
            }
            ObjectNode create = Json.MAPPER.createObjectNode().put("input_file_id", fileId).put("endpoint", BatchLines.ENDPOINT)
                    .put("completion_window", "24h");
            ObjectNode meta = create.putObject("metadata");
            metadata.forEach(meta::put);
            return send(request("/batches", settings.timeout()).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(create.toString())).build());
        }).thenApply(BatchApiClient::info);
    }

    /** The job {@code batchId} as the provider describes it now. */
    @Override
    public CompletableFuture<Info> status(String batchId) {
        return send(request("/batches/" + batchId, settings.timeout()).GET().build()).thenApply(BatchApiClient::info);
    }

    @Override
    public CompletableFuture<Void> lines(String fileId, Consumer<BatchLines.Line> each) {
        if (fileId == null || fileId.isBlank()) {
            return CompletableFuture.completedFuture(null);
        }
        Duration deadline = max(settings.timeout(), DOWNLOAD_TIMEOUT);
        HttpRequest get = request("/files/" + fileId + "/content", deadline).GET().build();
        StringBuilder refusal = new StringBuilder();
        HttpResponse.BodyHandler<Long> handler = info -> info.statusCode() / 100 == 2
                ? BoundedBodies.ofLines(LINE_CAP, Long.MAX_VALUE, raw -> BatchLines.line(raw).ifPresent(each)).apply(info)
                : BoundedBodies.ofLines(REFUSAL_CAP, REFUSAL_CAP, line -> refusal.append(line).append('\n')).apply(info);
        return BoundedCall.send(client(), get, handler, deadline).thenAccept(response -> {
            if (response.statusCode() / 100 != 2) {
                throw new Refused(response.statusCode(), refusal.toString());
            }
        });
    }

    @Override
    public CompletableFuture<List<Info>> list(int maxPages) {
        return page(null, new ArrayList<>(), Math.max(1, maxPages));
    }

    /** Page after {@code after} (null: the first) and those after it, up to {@code left} pages, into {@code found}. */
    private CompletableFuture<List<Info>> page(String after, List<Info> found, int left) {
        String query = "/batches?limit=" + PAGE + (after == null ? "" : "&after=" + URLEncoder.encode(after, StandardCharsets.UTF_8));
        return send(request(query, settings.timeout()).GET().build()).thenCompose(answer -> {
            JsonNode data = answer.path("data");
            data.forEach(job -> found.add(info(job)));
            String last = data.size() == 0 ? null : data.get(data.size() - 1).path("id").asText(null);
            if (!answer.path("has_more").asBoolean(false) || last == null || left <= 1) {
                return CompletableFuture.completedFuture(found);
            }
            return page(last, found, left - 1);
        });
    }

    @Override
    public CompletableFuture<Info> cancel(String batchId) {
        return send(request("/batches/" + batchId + "/cancel", settings.timeout()).POST(HttpRequest.BodyPublishers.noBody()).build())
                .thenApply(BatchApiClient::info);
    }

    /** {@code request}'s JSON answer, the whole call within the request's timeout, its answer at most {@link #ANSWER_CAP}. */
    private CompletableFuture<JsonNode> send(HttpRequest request) {
        Duration deadline = request.timeout().orElse(settings.timeout());
        return BoundedCall.send(client(), request, BoundedBodies.ofString(ANSWER_CAP), deadline).thenApply(response -> {
            if (response.statusCode() / 100 != 2) {
                throw new Refused(response.statusCode(), response.body());
            }
            try {
                return Json.MAPPER.readTree(response.body());
            } catch (IOException e) {
                throw new Refused(502, "unreadable answer: " + e.getClass().getSimpleName());
            }
        });
    }

    private HttpRequest.Builder request(String path, Duration timeout) {
        return HttpRequest.newBuilder(URI.create(settings.baseUrl() + path)).timeout(timeout)
                .header("Authorization", "Bearer " + settings.apiKey().reveal()).header("Accept", "application/json");
    }

    static Info info(JsonNode job) {
        JsonNode errors = job.get("errors");
        boolean none = errors == null || errors.isNull();
        String why = none ? null : errors.path("data").path(0).path("message").asText(errors.toString());
        String code = none ? null : text(errors.path("data").path(0), "code");
        JsonNode metadata = job.path("metadata");
        JsonNode input = job.path("usage").path("input_tokens");
        return new Info(job.path("id").asText(null), BatchStatus.of(job.path("status").asText(null)), text(job, "output_file_id"),
                text(job, "error_file_id"), why, code, text(metadata, METADATA_JOB), text(metadata, METADATA_SCOPE),
                input.canConvertToLong() ? input.asLong() : -1);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() || v.asText().isBlank() ? null : v.asText();
    }

    private HttpClient client() {
        HttpClient c = http;
        if (c == null) {
            synchronized (this) {
                if (http == null) {
                    boolean https = "https".equalsIgnoreCase(settings.baseUrl().getScheme());
                    http = HttpClient.newBuilder().version(https ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
                            .connectTimeout(Duration.ofSeconds(10)).build();
                }
                c = http;
            }
        }
        return c;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        // nothing held but the HTTP client's pool, whose threads are daemons and end when idle
    }
}
