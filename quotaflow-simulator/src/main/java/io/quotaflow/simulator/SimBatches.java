package io.quotaflow.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * OpenAI's Batch API as the simulator serves it: {@code POST /v1/files} (multipart, {@code purpose=batch},
 * a JSONL of {@code /v1/chat/completions} requests), {@code POST /v1/batches}, {@code GET /v1/batches/{id}}
 * and {@code GET /v1/files/{id}/content}. A job is {@code validating}, then {@code in_progress} until
 * {@link #delayMs} after its creation, when every line is answered as the chat endpoint would answer it
 * (outside the key's per-minute buckets: never a 429) and it is {@code completed}: 200 answers in its
 * output file, the others in its error file. With {@link #expireAfter} {@code = n >= 0} a job instead
 * {@code expired} after answering its first {@code n} lines; the rest are in the error file with
 * {@code batch_expired}. {@link BatchBehaviour} also makes jobs fail, write broken output lines, vanish
 * (404 forever) and count against an enqueued-token limit of the simulator's own counting (a job that
 * would pass it {@code failed} with {@code token_limit_exceeded}, as OpenAI's). A job keeps the
 * {@code metadata} it was created with; {@code GET /v1/batches} lists the jobs newest first, paged
 * ({@code limit}, {@code after}); {@code POST /v1/batches/{id}/cancel} cancels one. All set with
 * {@code POST /admin/batches} (docs/simulator.md).
 */
final class SimBatches {

    /** How long a job takes by default. */
    static final long DEFAULT_DELAY_MS = 2_000;
    private static final String INVALID_REQUEST = "invalid_request_error";

    private final ObjectMapper mapper = new ObjectMapper();
    private final ChatCompletions chat;
    private final String defaultModel;
    private final LongSupplier epochMs;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, SimBatchJob> jobs = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong outputLines = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger tokenLimitRefusals = new java.util.concurrent.atomic.AtomicInteger();
    private volatile BatchBehaviour behaviour = BatchBehaviour.DEFAULT;

    SimBatches(ChatCompletions chat, String defaultModel, LongSupplier epochMs) {
        this.chat = chat;
        this.defaultModel = defaultModel;
        this.epochMs = epochMs;
    }

    /** Jobs created from now on take {@code delay} ms and, with {@code expire >= 0}, all expire after that many lines. */
    void set(long delay, int expire) {
        this.behaviour = behaviour.withDelay(delay).withExpiry(expire, 1);
    }

    /** How the jobs created from now on behave. */
    void set(BatchBehaviour value) {
        this.behaviour = value;
    }

    BatchBehaviour behaviour() {
        return behaviour;
    }

    /** Jobs refused so far for the enqueued-token limit. */
    int tokenLimitRefusals() {
        return tokenLimitRefusals.get();
    }

    /** How many jobs were created so far. */
    int created() {
        return jobs.size();
    }

    /** Whether job {@code id} was run to its end and its files read (output, else errors). */
    boolean read(String id) {
        SimBatchJob job = jobs.get(id);
        return job != null && job.read;
    }

    /** The ids of the jobs created so far, oldest first. */
    java.util.List<String> ids() {
        return jobs.values().stream().sorted(java.util.Comparator.comparingLong((SimBatchJob j) -> j.createdAt).thenComparing(j -> j.id.length())
                .thenComparing(j -> j.id)).map(j -> j.id).toList();
    }

    /** How many jobs were created and not run to their end with their files read (output, else errors) since. */
    int unread() {
        return (int) jobs.values().stream().filter(j -> !j.read).count();
    }

    /** {@code POST /v1/files}: the multipart body's {@code file} part, stored. */
    Reply upload(byte[] body, String contentType, String authorization) throws JsonProcessingException {
        if (!authorized(authorization)) {
            return OpenAiErrors.unauthorized(false);
        }
        String boundary = Multipart.boundary(contentType);
        byte[] file = boundary == null ? null : Multipart.part(body, boundary, "file");
        String purpose = boundary == null ? null : text(Multipart.part(body, boundary, "purpose"));
        if (file == null || !"batch".equals(purpose == null ? null : purpose.strip())) {
            return OpenAiErrors.error(400, "A multipart body with purpose=batch and a file is required.", INVALID_REQUEST,
                    "file", null, Map.of(), false);
        }
        String id = "file-sim-" + ids.incrementAndGet();
        files.put(id, file);
        ObjectNode answer = mapper.createObjectNode().put("id", id).put("object", "file").put("bytes", file.length)
                .put("created_at", epochMs.getAsLong() / 1000).put("filename", "batch.jsonl").put("purpose", "batch");
        return ok(answer);
    }

    /** {@code POST /v1/batches}. */
    Reply create(byte[] body, String authorization) throws IOException {
        if (!authorized(authorization)) {
            return OpenAiErrors.unauthorized(false);
        }
        JsonNode request = body.length == 0 ? null : mapper.readTree(body);
        String fileId = request == null ? null : request.path("input_file_id").asText(null);
        if (fileId == null || !files.containsKey(fileId)) {
            return OpenAiErrors.error(400, "input_file_id names no uploaded file.", INVALID_REQUEST, "input_file_id", null,
                    Map.of(), false);
        }
        if (!"/v1/chat/completions".equals(request.path("endpoint").asText()) || !"24h".equals(request.path("completion_window").asText())) {
            return OpenAiErrors.error(400, "endpoint must be /v1/chat/completions and completion_window 24h.", INVALID_REQUEST,
                    "endpoint", null, Map.of(), false);
        }
        Map<String, String> metadata = new java.util.LinkedHashMap<>();
        request.path("metadata").fields().forEachRemaining(e -> metadata.put(e.getKey(), e.getValue().asText()));
        String[] lines = lines(files.get(fileId));
        BatchBehaviour b = behaviour;
        String id = "batch_sim_" + ids.incrementAndGet();
        SimBatchJob job;
        synchronized (this) {
            long now = epochMs.getAsLong();
            job = new SimBatchJob(id, fileId, authorization, now, b, created.incrementAndGet(), metadata, count(lines, b.countFactor()));
            long held = jobs.values().stream().filter(j -> j.enqueued(now)).mapToLong(j -> j.counted).sum();
            job.refused = b.enqueuedLimit() > 0 && held + job.counted > b.enqueuedLimit();
            job.total = lines.length;
            jobs.put(id, job);
        }
        if (job.refused) {
            tokenLimitRefusals.incrementAndGet();
        }
        return ok(describe(job));
    }

    /** The simulator's own count of a job's tokens: {@code factor} x (each line's messages, as the CHARS tokenizer counts them, + max_tokens). */
    private long count(String[] lines, double factor) throws IOException {
        long total = 0;
        for (String raw : lines) {
            JsonNode body = mapper.readTree(raw).path("body");
            long tokens = body.path("max_tokens").asLong(body.path("max_completion_tokens").asLong(0));
            for (JsonNode message : body.path("messages")) {
                tokens += 4 + SimTokenizer.charsTokens(message.path("content").asText(""));
            }
            total += tokens;
        }
        return (long) Math.ceil(total * factor);
    }

    /** {@code GET /v1/batches?limit=L&after=ID}: the jobs newest first (vanished ones left out), one page. */
    Reply list(String query, String authorization) throws IOException {
        if (!authorized(authorization)) {
            return OpenAiErrors.unauthorized(false);
        }
        Map<String, String> params = new java.util.HashMap<>();
        for (String pair : query == null ? new String[0] : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                params.put(pair.substring(0, eq), java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        int limit = Math.max(1, Math.min(100, parseInt(params.get("limit"), 20)));
        java.util.List<String> newest = new java.util.ArrayList<>(ids());
        java.util.Collections.reverse(newest);
        newest.removeIf(id -> jobs.get(id).vanishes);
        int from = params.containsKey("after") ? newest.indexOf(params.get("after")) + 1 : 0;
        java.util.List<String> page = newest.subList(Math.min(from, newest.size()), Math.min(newest.size(), from + limit));
        ObjectNode answer = mapper.createObjectNode().put("object", "list");
        com.fasterxml.jackson.databind.node.ArrayNode data = answer.putArray("data");
        for (String id : page) {
            SimBatchJob job = jobs.get(id);
            advance(job);
            data.add(describe(job));
        }
        answer.put("first_id", page.isEmpty() ? null : page.get(0)).put("last_id", page.isEmpty() ? null : page.get(page.size() - 1));
        answer.put("has_more", from + page.size() < newest.size());
        return ok(answer);
    }

    /** {@code POST /v1/batches/{id}/cancel}: a job not yet ended is cancelled (its lines never run). */
    Reply cancel(String id, String authorization) throws IOException {
        if (!authorized(authorization)) {
            return OpenAiErrors.unauthorized(false);
        }
        SimBatchJob job = jobs.get(id);
        if (job == null || job.vanishes) {
            return OpenAiErrors.error(404, "No batch found with id '" + id + "'.", INVALID_REQUEST, null, null, Map.of(), false);
        }
        synchronized (this) {
            advance(job);
            if (!terminal(job.status)) {
                job.status = "cancelled";
            }
        }
        return ok(describe(job));
    }

    private static boolean terminal(String status) {
        return status.equals("completed") || status.equals("expired") || status.equals("failed") || status.equals("cancelled");
    }

    private static int parseInt(String value, int otherwise) {
        try {
            return value == null ? otherwise : Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** {@code GET /v1/batches/{id}}: the job, run to its end when its time has come. */
    Reply get(String id, String authorization) throws IOException {
        if (!authorized(authorization)) {
            return OpenAiErrors.unauthorized(false);
        }
        SimBatchJob job = jobs.get(id);
        if (job == null || job.vanishes) {
            return OpenAiErrors.error(404, "No batch found with id '" + id + "'.", INVALID_REQUEST, null, null, Map.of(), false);
        }
        advance(job);
        return ok(describe(job));
    }

    /** {@code GET /v1/files/{id}/content}. */
    Reply content(String id, String authorization) {
        if (!authorized(authorization)) {
            return OpenAiErrors.unauthorized(false);
        }
        byte[] file = files.get(id);
        if (file == null) {
            return OpenAiErrors.error(404, "No such File object: " + id, INVALID_REQUEST, "id", null, Map.of(), false);
        }
        jobs.values().stream().filter(j -> id.equals(j.outputFileId) || j.outputFileId == null && id.equals(j.errorFileId))
                .forEach(j -> j.read = true);
        return new Reply.Now(200, Map.of(), file, false);
    }

    private synchronized void advance(SimBatchJob job) throws IOException {
        long age = epochMs.getAsLong() - job.createdAt;
        if (terminal(job.status) || failed(job, age)) {
            return;
        }
        if (age < job.delay) {
            job.status = age < job.delay / 10 ? "validating" : "in_progress";
            return;
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        String[] lines = lines(files.get(job.inputFileId));
        for (int n = 0; n < lines.length; n++) {
            answer(job, mapper.readTree(lines[n]), n, output, errors);
        }
        if (output.size() > 0) {
            job.outputFileId = "file-sim-" + ids.incrementAndGet();
            files.put(job.outputFileId, output.toByteArray());
        }
        if (errors.size() > 0) {
            job.errorFileId = "file-sim-" + ids.incrementAndGet();
            files.put(job.errorFileId, errors.toByteArray());
        }
        job.status = job.expireAfter >= 0 && job.expireAfter < lines.length ? "expired" : "completed";
    }

    /** Whether {@code job}, {@code age} ms old, has failed (for the enqueued limit at once, else after validating); marks it so. */
    private static boolean failed(SimBatchJob job, long age) {
        if (job.refused || job.fails && age >= job.delay / 10) {
            job.status = "failed";
            return true;
        }
        return false;
    }

    /** Line {@code n} of {@code job}: answered into {@code output} (a 200) or {@code errors}, or expired. */
    private void answer(SimBatchJob job, JsonNode line, int n, ByteArrayOutputStream output, ByteArrayOutputStream errors) throws IOException {
        ObjectNode out = mapper.createObjectNode().put("id", "batch_req_sim_" + ids.incrementAndGet())
                .put("custom_id", line.path("custom_id").asText());
        if (job.expireAfter >= 0 && n >= job.expireAfter) {
            out.putNull("response");
            out.putObject("error").put("code", "batch_expired")
                    .put("message", "This request could not be executed before the completion window expired.");
            errors.writeBytes(bytes(out));
            job.failed++;
            return;
        }
        Reply reply = chat.batchLine(mapper.writeValueAsBytes(line.path("body")), job.authorization);
        int status = 500;
        byte[] body = "{\"error\":{\"message\":\"The server had an error processing this request.\",\"type\":\"server_error\"}}"
                .getBytes(StandardCharsets.UTF_8);
        if (reply instanceof Reply.Later later) {
            status = 200;
            body = later.body();
        } else if (reply instanceof Reply.Now now) {
            status = now.status();
            body = now.body();
        }
        out.putObject("response").put("status_code", status).put("request_id", "req_sim_" + n).set("body", mapper.readTree(body));
        out.putNull("error");
        if (status == 200 && BatchBehaviour.picked(outputLines.incrementAndGet(), job.malformedEvery)) {
            // a line cut short: not JSON
            byte[] whole = bytes(out);
            output.write(whole, 0, whole.length / 2);
            output.write('\n');
            job.completed++;
        } else if (status == 200) {
            output.writeBytes(bytes(out));
            job.completed++;
        } else {
            errors.writeBytes(bytes(out));
            job.failed++;
        }
    }

    private ObjectNode describe(SimBatchJob job) {
        ObjectNode node = mapper.createObjectNode().put("id", job.id).put("object", "batch").put("endpoint", "/v1/chat/completions");
        if (job.status.equals("failed")) {
            ObjectNode error = node.putObject("errors").put("object", "list").putArray("data").addObject();
            if (job.refused) {
                error.put("code", "token_limit_exceeded").put("message", String.format(java.util.Locale.ROOT, "Enqueued token limit "
                        + "reached for %s in organization %s. Limit: %,d enqueued tokens. Please try again once some in_progress "
                        + "batches have been completed.", defaultModel, OpenAiErrors.ORGANIZATION, behaviour.enqueuedLimit()));
            } else {
                error.put("code", "server_error").put("message", "The batch failed: an internal error.");
            }
            error.putNull("param").putNull("line");
        } else {
            node.putNull("errors");
        }
        node.put("input_file_id", job.inputFileId).put("completion_window", "24h").put("status", job.status);
        node.put("output_file_id", job.outputFileId).put("error_file_id", job.errorFileId);
        node.put("created_at", job.createdAt / 1000).put("expires_at", job.createdAt / 1000 + 86_400);
        node.putObject("request_counts").put("total", job.total).put("completed", job.completed).put("failed", job.failed);
        ObjectNode metadata = node.putObject("metadata");
        job.metadata.forEach(metadata::put);
        if (job.status.equals("completed")) {
            node.putObject("usage").put("input_tokens", job.counted).put("output_tokens", 0).put("total_tokens", job.counted);
        }
        return node;
    }

    private boolean authorized(String authorization) {
        return chat.model(defaultModel).authenticate(authorization).isPresent();
    }

    private byte[] bytes(ObjectNode node) throws JsonProcessingException {
        byte[] json = mapper.writeValueAsBytes(node);
        byte[] out = new byte[json.length + 1];
        System.arraycopy(json, 0, out, 0, json.length);
        out[json.length] = '\n';
        return out;
    }

    private Reply ok(ObjectNode answer) throws JsonProcessingException {
        return new Reply.Now(200, Map.of(), mapper.writeValueAsBytes(answer), false);
    }

    private static String[] lines(byte[] file) {
        return new String(file, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toArray(String[]::new);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
