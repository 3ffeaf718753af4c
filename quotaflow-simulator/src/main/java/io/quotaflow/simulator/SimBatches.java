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
 * {@code batch_expired}. Both are set with {@code POST /admin/batches} (docs/simulator.md).
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
    private final Map<String, Job> jobs = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile long delayMs = DEFAULT_DELAY_MS;
    private volatile int expireAfter = -1;

    /** One job: what it was made of and, once done, its status and files. */
    private static final class Job {
        final String id;
        final String inputFileId;
        final String authorization;
        final long createdAt;
        final int expireAfter;
        final long delay;
        volatile String status = "validating";
        volatile String outputFileId;
        volatile String errorFileId;
        volatile int total;
        volatile int completed;
        volatile int failed;
        volatile boolean read;

        Job(String id, String inputFileId, String authorization, long createdAt, long delay, int expireAfter) {
            this.id = id;
            this.inputFileId = inputFileId;
            this.authorization = authorization;
            this.createdAt = createdAt;
            this.delay = delay;
            this.expireAfter = expireAfter;
        }
    }

    SimBatches(ChatCompletions chat, String defaultModel, LongSupplier epochMs) {
        this.chat = chat;
        this.defaultModel = defaultModel;
        this.epochMs = epochMs;
    }

    /** Jobs created from now on take {@code delay} ms and, with {@code expire >= 0}, expire after that many lines. */
    void set(long delay, int expire) {
        this.delayMs = Math.max(0, delay);
        this.expireAfter = expire;
    }

    /** How many jobs were created so far. */
    int created() {
        return jobs.size();
    }

    /** Whether job {@code id} was run to its end and its files read (output, else errors). */
    boolean read(String id) {
        Job job = jobs.get(id);
        return job != null && job.read;
    }

    /** The ids of the jobs created so far, oldest first. */
    java.util.List<String> ids() {
        return jobs.values().stream().sorted(java.util.Comparator.comparingLong((Job j) -> j.createdAt).thenComparing(j -> j.id.length())
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
        String boundary = boundary(contentType);
        byte[] file = boundary == null ? null : part(body, boundary, "file");
        String purpose = boundary == null ? null : text(part(body, boundary, "purpose"));
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
        String id = "batch_sim_" + ids.incrementAndGet();
        Job job = new Job(id, fileId, authorization, epochMs.getAsLong(), delayMs, expireAfter);
        job.total = lines(files.get(fileId)).length;
        jobs.put(id, job);
        return ok(describe(job));
    }

    /** {@code GET /v1/batches/{id}}: the job, run to its end when its time has come. */
    Reply get(String id, String authorization) throws IOException {
        if (!authorized(authorization)) {
            return OpenAiErrors.unauthorized(false);
        }
        Job job = jobs.get(id);
        if (job == null) {
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

    private synchronized void advance(Job job) throws IOException {
        long age = epochMs.getAsLong() - job.createdAt;
        if (job.status.equals("completed") || job.status.equals("expired")) {
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

    /** Line {@code n} of {@code job}: answered into {@code output} (a 200) or {@code errors}, or expired. */
    private void answer(Job job, JsonNode line, int n, ByteArrayOutputStream output, ByteArrayOutputStream errors) throws IOException {
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
        if (status == 200) {
            output.writeBytes(bytes(out));
            job.completed++;
        } else {
            errors.writeBytes(bytes(out));
            job.failed++;
        }
    }

    private ObjectNode describe(Job job) {
        ObjectNode node = mapper.createObjectNode().put("id", job.id).put("object", "batch").put("endpoint", "/v1/chat/completions");
        node.putNull("errors");
        node.put("input_file_id", job.inputFileId).put("completion_window", "24h").put("status", job.status);
        node.put("output_file_id", job.outputFileId).put("error_file_id", job.errorFileId);
        node.put("created_at", job.createdAt / 1000).put("expires_at", job.createdAt / 1000 + 86_400);
        node.putObject("request_counts").put("total", job.total).put("completed", job.completed).put("failed", job.failed);
        node.putObject("metadata");
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

    /** The boundary of a {@code multipart/form-data} content type, or null. */
    static String boundary(String contentType) {
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/form-data")) {
            return null;
        }
        for (String param : contentType.split(";")) {
            String p = param.strip();
            if (p.toLowerCase(java.util.Locale.ROOT).startsWith("boundary=")) {
                String b = p.substring("boundary=".length());
                return b.startsWith("\"") && b.endsWith("\"") && b.length() > 1 ? b.substring(1, b.length() - 1) : b;
            }
        }
        return null;
    }

    /** The content of part {@code name} of a multipart body, or null. */
    static byte[] part(byte[] body, String boundary, String name) {
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        int at = indexOf(body, delimiter, 0);
        while (at >= 0) {
            int headersStart = at + delimiter.length;
            if (headersStart + 2 <= body.length && body[headersStart] == '-' && body[headersStart + 1] == '-') {
                return null;
            }
            int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), headersStart);
            if (headersEnd < 0) {
                return null;
            }
            int next = indexOf(body, ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1), headersEnd + 4);
            if (next < 0) {
                return null;
            }
            String headers = new String(body, headersStart, headersEnd - headersStart, StandardCharsets.ISO_8859_1);
            if (headers.contains("name=\"" + name + "\"")) {
                byte[] out = new byte[next - headersEnd - 4];
                System.arraycopy(body, headersEnd + 4, out, 0, out.length);
                return out;
            }
            at = next + 2;
        }
        return null;
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
