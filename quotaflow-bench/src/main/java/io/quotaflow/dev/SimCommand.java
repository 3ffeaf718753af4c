package io.quotaflow.dev;

import io.quotaflow.config.ConfigKeys;
import io.quotaflow.simulator.Faults;
import io.quotaflow.simulator.HeaderMoment;
import io.quotaflow.simulator.SimDialect;
import io.quotaflow.simulator.Outage;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimTokenizer;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.simulator.SimulatorStats;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import io.quotaflow.cli.ExitCodes;
import io.quotaflow.cli.GracefulStop;
import io.quotaflow.cli.ReadsEnvironment;

/**
 * {@code quotaflow sim}: runs the built-in OpenAI-compatible provider simulator in the foreground
 * until SIGINT/SIGTERM.
 */
@Command(
        name = "sim",
        mixinStandardHelpOptions = true,
        header = "Run the OpenAI-compatible provider simulator until stopped.",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
                "Runs the built-in OpenAI-compatible provider simulator until interrupted (Ctrl+C / SIGTERM).",
                "",
                "It serves POST /v1/chat/completions with per-API-key requests-per-minute (RPM) and "
                        + "tokens-per-minute (TPM) limits enforced the way OpenAI does: continuously refilling "
                        + "buckets holding only a few seconds of the minute's budget, admission by the prompt "
                        + "estimate plus max_tokens, HTTP 429 with retry-after, retry-after-ms and "
                        + "\"Used X, Requested Y\" when a bucket is short, and the x-ratelimit-* headers on every "
                        + "answer. Tickets are classified by deterministic keyword rules (English and Portuguese) "
                        + "after a simulated latency.",
                "",
                "Provider shape: the simulator can disagree with the client. --tokenizer makes it count with "
                        + "another tokenizer than the model's (usage.prompt_tokens, bucket debits, 429 numbers and "
                        + "the context check all use its own count); --context-tokens refuses requests whose prompt "
                        + "+ max_tokens exceed the window with 400 context_length_exceeded, charging nothing; "
                        + "--burst-seconds 60 gives buckets that hold a full minute; --start-full false starts a "
                        + "new key's buckets empty. Every 200, 429 and 400 reports the key's real buckets in "
                        + "x-ratelimit-limit/remaining/reset-requests/tokens; a 200's are a snapshot taken when the "
                        + "call is admitted, as real providers do (--headers-at answer: when the answer is sent).",
                "",
                "Several models: --serve NAME:rpm=..,tpm=.. serves another model on the same port with its own "
                        + "limits, window and tokenizer; --model and the flags above describe the default one. "
                        + "Take one model down and bring it back with POST /admin/models/NAME/down (body "
                        + "{\"status\":503} optional) and POST /admin/models/NAME/up, or --outage NAME@START:END.",
                "",
                "Statistics: GET http://localhost:PORT/admin/stats (JSON, with each model's counts under models); "
                        + "POST /admin/reset clears them.",
                "",
                "Fault injection: the --p* probabilities are exclusive (one draw per request picks at most one "
                        + "fault, so they add up to at most 1) and deterministic for a given --seed and a "
                        + "sequential client. 5xx answers, hangs, outages and --fail-auth never debit the rate "
                        + "limits; malformed, missing-item and stalled answers are admitted 200s and do. Faults can be "
                        + "changed while running: GET /admin/faults shows them as JSON, POST /admin/faults with "
                        + "such a JSON body replaces them (fields left out are off), e.g.",
                "  curl -d '{\"failAuth\":true}' http://localhost:8089/admin/faults",
                "  curl -d '{\"p503\":0.2,\"outages\":[\"60:120\"]}' http://localhost:8089/admin/faults",
                ""},
        footer = {
                "",
                "Accepted API keys come from the environment variable QUOTAFLOW_SIM_API_KEYS "
                        + "(comma-separated) and/or --api-key-file; with neither, any non-empty bearer key is "
                        + "accepted. Keys are never printed. Everything else is flags only: --config and the "
                        + "pipeline's QUOTAFLOW_* keys are not read (--rpm and --tpm here are the simulated "
                        + "provider's limits, not quota.rpm/quota.tpm); an unknown QUOTAFLOW_* variable stops "
                        + "the start (exit 2).",
                "",
                "Example:",
                "  quotaflow sim --port 8089 --rpm 60 --tpm 20000",
                "  quotaflow sim --p503 0.05 --p-malformed 0.02 --outage 60:90",
                "  quotaflow sim --tokenizer cl100k_base --context-tokens 8192 --burst-seconds 60",
                "  quotaflow sim --serve gpt-4o:rpm=500,tpm=30000 --outage gpt-4o-mini@60:120",
                "  quotaflow run --llm-base-url http://localhost:8089/v1 ..."},
        exitCodeList = {
                "0:stopped cleanly (Ctrl+C / SIGTERM)",
                "1:the simulator could not start (port in use, address not available)",
                "2:usage error (bad option, unreadable key file, unknown QUOTAFLOW_* variable)"})
public final class SimCommand implements Callable<Integer>, ReadsEnvironment {

    /** Environment variable with a comma-separated list of accepted keys. */
    public static final String API_KEYS_ENV = "QUOTAFLOW_SIM_API_KEYS";

    @Spec
    CommandSpec spec;

    /** Where the shutdown hook goes (tests run it themselves). */
    GracefulStop.Hooks hooks = GracefulStop.Hooks.RUNTIME;

    /** The environment {@value #API_KEYS_ENV} is read from; the command line sets it, tests replace it. */
    private Map<String, String> environment = System.getenv();

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + SimulatorConfig.DEFAULT_PORT,
            description = "TCP port to listen on; 0 picks a free port. Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = SimulatorConfig.DEFAULT_BIND_ADDRESS,
            description = "Address to listen on. The default, ${DEFAULT-VALUE}, accepts local connections only; "
                    + "0.0.0.0 listens on every interface.")
    String bindAddress;

    @Option(names = "--rpm", paramLabel = "R", defaultValue = "" + SimulatorConfig.DEFAULT_RPM,
            description = "Requests per minute allowed per API key. Default: ${DEFAULT-VALUE}.")
    long rpm;

    @Option(names = "--tpm", paramLabel = "T", defaultValue = "" + SimulatorConfig.DEFAULT_TPM,
            description = "Tokens per minute allowed per API key, charged at admission as prompt tokens + "
                    + "max_tokens (not refunded). Default: ${DEFAULT-VALUE}.")
    long tpm;

    @Option(names = "--burst-seconds", paramLabel = "S", defaultValue = "" + SimulatorConfig.DEFAULT_BURST_SECONDS,
            description = "Seconds of refill each bucket holds, in (0, 60]: a bucket's capacity is "
                    + "limit x S / 60, so a fresh key can burst S seconds' worth; 60 is a bucket holding a "
                    + "full minute. Default: ${DEFAULT-VALUE}.")
    double burstSeconds;

    @Option(names = "--start-full", paramLabel = "true|false", arity = "0..1", defaultValue = "true", fallbackValue = "true",
            description = "Whether a new key's buckets start full (true, what real providers do: a full-minute "
                    + "bucket then admits a whole minute at once) or empty (false: the first S seconds are paced "
                    + "by the refill alone). Default: ${DEFAULT-VALUE}.")
    String startFull;

    @Option(names = "--headers-at", paramLabel = "admission|answer", defaultValue = "admission",
            description = "When a 200's x-ratelimit-* headers are taken: admission (a snapshot of the buckets when "
                    + "the call is admitted, returned with the answer after the latency, as real providers compute "
                    + "them) or answer (the buckets when the answer is sent). Default: ${DEFAULT-VALUE}.")
    String headersAt;

    @Option(names = "--dialect", paramLabel = "openai|azure|anthropic|gemini", defaultValue = "openai",
            description = "The provider dialect spoken: its paths (azure: /openai/deployments/MODEL/chat/completions?api-version=…, "
                    + "gemini: /v1beta/openai/…), key header, rate-limit headers and error bodies. Default: ${DEFAULT-VALUE}.")
    String dialect;

    @Option(names = "--engine", paramLabel = "K/M[/503]",
            description = "Serve as a self-hosted engine instead of a rate-limited provider: no rate limits and no "
                    + "x-ratelimit-* headers; throughput saturates at K running calls (beyond, each call takes its latency "
                    + "x running / K), and more than M running are refused with TGI's 429 \"Model is overloaded\" (or a 503).")
    String engine;

    @Option(names = "--tokenizer", paramLabel = "NAME", defaultValue = "auto",
            description = "How the simulator counts tokens: auto (the model's OpenAI encoding, as the client "
                    + "assumes), o200k_base, cl100k_base, or chars (a non-BPE provider: ceil(code points / 4) "
                    + "per message content + 4 per message + 3 per prompt; completions ceil(code points / 4)). "
                    + "Default: ${DEFAULT-VALUE}.")
    String tokenizer;

    @Option(names = "--context-tokens", paramLabel = "N", defaultValue = "" + SimulatorConfig.DEFAULT_CONTEXT_TOKENS,
            description = "The model's context window: a request whose prompt tokens + max_tokens exceed N is "
                    + "refused with 400 context_length_exceeded and charged nothing. Default: ${DEFAULT-VALUE} "
                    + "(gpt-4o-mini).")
    int contextTokens;

    @Option(names = "--model", paramLabel = "M", defaultValue = SimulatorConfig.DEFAULT_MODEL,
            description = "The model served; requests naming another model get 404 model_not_found. "
                    + "Also selects the tokenizer when --tokenizer is auto. Default: ${DEFAULT-VALUE}.")
    String model;

    @Option(names = "--latency-ms", paramLabel = "MS", defaultValue = "" + SimulatorConfig.DEFAULT_BASE_LATENCY_MS,
            description = "Base latency of every successful answer, in milliseconds. Default: ${DEFAULT-VALUE}.")
    long latencyMs;

    @Option(names = "--per-token-ms", paramLabel = "MS",
            defaultValue = "" + SimulatorConfig.DEFAULT_PER_COMPLETION_TOKEN_MS,
            description = "Extra latency per completion token, in milliseconds. Default: ${DEFAULT-VALUE}.")
    double perTokenMs;

    @Option(names = "--latency-jitter", paramLabel = "F", defaultValue = "" + SimulatorConfig.DEFAULT_LATENCY_JITTER,
            description = "Relative latency jitter in [0, 1]; 0.2 means +/-20 %%. Default: ${DEFAULT-VALUE}.")
    double latencyJitter;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "" + SimulatorConfig.DEFAULT_SEED,
            description = "Seed of the simulator's random source (latency jitter and fault draws). "
                    + "Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--p500", paramLabel = "P", defaultValue = "0",
            description = "Probability of an HTTP 500 server_error answer (no rate-limit debit).")
    double p500;

    @Option(names = "--p503", paramLabel = "P", defaultValue = "0",
            description = "Probability of an HTTP 503 \"The server is overloaded or not ready yet.\" answer "
                    + "(no rate-limit debit).")
    double p503;

    @Option(names = "--p529", paramLabel = "P", defaultValue = "0",
            description = "Probability of an HTTP 529 overloaded_error answer (no rate-limit debit).")
    double p529;

    @Option(names = "--p-malformed", paramLabel = "P", defaultValue = "0",
            description = "Probability of a 200 whose message content is not valid JSON (admitted: debits the "
                    + "rate limits).")
    double pMalformed;

    @Option(names = "--p-missing-item", paramLabel = "P", defaultValue = "0",
            description = "Probability of a 200 whose results omit one ticket id of the batch (admitted: debits "
                    + "the rate limits).")
    double pMissingItem;

    @Option(names = "--p-hang", paramLabel = "P", defaultValue = "0",
            description = "Probability of never answering: the connection is dropped after 120 s, so the "
                    + "client's timeout must fire (no rate-limit debit).")
    double pHang;

    @Option(names = "--p-stall-body", paramLabel = "P", defaultValue = "0",
            description = "Probability of a 200 whose headers and first half of the body are sent, then nothing: the "
                    + "connection is held and dropped after 120 s, so the client's whole-call deadline must fire "
                    + "(admitted: debits the rate limits).")
    double pStallBody;

    @Option(names = "--outage", paramLabel = "[MODEL@]START:END",
            description = "Outage window in seconds after the simulator starts, e.g. 60:90, or of one model only, "
                    + "e.g. gpt-4o-mini@60:90; repeatable. During an outage every request (for that model) gets 503 "
                    + "and the rate limits are not debited.")
    List<String> outages = new ArrayList<>();

    @Option(names = "--serve", paramLabel = ServeOption.SYNTAX,
            description = "Also serve another model on the same port, with its own limits per key, burst, context "
                    + "window, tokenizer and (key-env: the name of a variable holding its comma-separated keys) keys; "
                    + "repeatable. Requests pick a model by their body's model; one not served gets 404 "
                    + "model_not_found. Keys left out take the defaults above, e.g. --serve "
                    + "gpt-4o:rpm=500,tpm=30000,context-tokens=128000.")
    List<String> serve = new ArrayList<>();

    @Option(names = "--fail-auth",
            description = "Answer every request with 401 invalid_api_key (switch it off at run time with "
                    + "POST /admin/faults).")
    boolean failAuth;

    @Option(names = "--api-key-file", paramLabel = "FILE",
            description = "File of accepted API keys, one per line (or comma-separated); blank lines and lines "
                    + "starting with # are ignored. Combined with " + API_KEYS_ENV + ".")
    Path apiKeyFile;

    @Override
    public Integer call() {
        SimulatorConfig config = toConfig(environment);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ProviderSimulator simulator;
        try {
            simulator = ProviderSimulator.start(config);
        } catch (UncheckedIOException e) {
            err.println("quotaflow sim: " + e.getMessage());
            err.flush();
            return ExitCodes.FAILURE;
        }
        // the hook is in place before "Press Ctrl+C" is printed: a stop asked right after it is not lost
        try (GracefulStop stop = GracefulStop.install("sim", () -> { }, Duration.ofSeconds(30), hooks)) {
            out.println(banner(config, simulator.baseUrl()));
            if (config.faults().any()) {
                out.println("Fault injection: " + config.faults().describe());
            }
            out.println(config.apiKeys().isEmpty()
                    ? "API keys: any non-empty bearer key is accepted"
                    : "API keys: " + config.apiKeys().size() + " accepted");
            out.println("Statistics: http://localhost:" + simulator.port() + "/admin/stats, faults: http://localhost:"
                    + simulator.port() + "/admin/faults. Press Ctrl+C to stop.");
            out.flush();
            try {
                stop.awaitStopRequest();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            SimulatorStats stats = simulator.stats();
            simulator.close();
            out.println(stoppedLine(stats));
            out.flush();
        }
        return ExitCodes.OK;
    }

    /** {@code Provider simulator stopped: 12 requests, 10 admitted, 2 answered 429.}, then each model's counts when several. */
    static String stoppedLine(SimulatorStats stats) {
        return SimBanner.stoppedLine(stats);
    }

    @Override
    public void environment(Map<String, String> env, Set<String> extraVariables) {
        this.environment = Map.copyOf(env);
    }

    /**
     * {@code Provider simulator listening on http://localhost:8089/v1 (RPM 500, TPM 200000, burst 5s,
     * tokenizer o200k_base, context 128000)}, then one line per other model served.
     */
    static String banner(SimulatorConfig config, String baseUrl) {
        return SimBanner.banner(config, baseUrl);
    }

    /**
     * The configuration the options describe, with the accepted keys read from {@code env} and
     * {@code --api-key-file}.
     *
     * @throws CommandLine.ParameterException for an unreadable key file or an invalid value
     */
    SimulatorConfig toConfig(Map<String, String> env) {
        refuseUnknownVariables(env);
        Set<String> keys;
        try {
            keys = SimApiKeys.accepted(env.get(API_KEYS_ENV), apiKeyFile);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        try {
            Faults.Builder faults = faults();
            SimTokenizer parsedTokenizer = parsedTokenizer();
            if (!(burstSeconds > 0 && burstSeconds <= 60)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "Invalid value for option '--burst-seconds': must be in (0, 60] (60 = a bucket holding a "
                                + "full minute), got " + burstSeconds);
            }
            boolean full = startFullFlag();
            if (contextTokens <= 0) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "Invalid value for option '--context-tokens': must be a positive number of tokens, got "
                                + contextTokens);
            }
            SimulatorConfig.Builder config = SimulatorConfig.builder()
                    .port(port).bindAddress(bindAddress).rpm(rpm).tpm(tpm).burstSeconds(burstSeconds)
                    .startFull(full).tokenizer(parsedTokenizer).contextTokens(contextTokens)
                    .model(model).baseLatencyMs(latencyMs).perCompletionTokenMs(perTokenMs)
                    .latencyJitter(latencyJitter).seed(seed).apiKeys(keys).faults(faults.build())
                    .headersAt(HeaderMoment.parse(headersAt)).dialect(SimDialect.parse(dialect))
                    .engine(engine == null ? null : io.quotaflow.simulator.EngineMode.parse(engine));
            serve.forEach(text -> config.serve(ServeOption.parse(text, env)));
            return SimBanner.checkOutageModels(config.build());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /**
     * The simulator reads one variable, {@value #API_KEYS_ENV}: a {@code QUOTAFLOW_*} variable that
     * quotaflow does not know at all (a typo such as {@code QUOTAFLOW_SIM_API_KEY}) is a usage error
     * rather than silently ignored. The pipeline's own variables are known, and left alone.
     */
    private void refuseUnknownVariables(Map<String, String> env) {
        ConfigKeys.unknownVariable(env, QuotaflowDevCommand.VARIABLES).ifPresent(message -> {
            throw new CommandLine.ParameterException(spec.commandLine(), message);
        });
    }

    /** The fault flags; an invalid outage throws {@link IllegalArgumentException}, the probabilities are checked by {@code build()}. */
    private Faults.Builder faults() {
        Faults.Builder faults = Faults.builder()
                .p500(p500).p503(p503).p529(p529).pMalformed(pMalformed).pMissingItem(pMissingItem).pHang(pHang).pStallBody(pStallBody)
                .failAuth(failAuth);
        outages.forEach(outage -> faults.outage(Outage.parse(outage)));
        return faults;
    }

    private SimTokenizer parsedTokenizer() {
        try {
            return SimTokenizer.parse(tokenizer);
        } catch (IllegalArgumentException e) {
            // the value itself is not echoed: the CLI never prints what might be a misplaced secret
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "Invalid value for option '--tokenizer': expected one of " + SimTokenizer.choices());
        }
    }

    private boolean startFullFlag() {
        if (startFull.strip().equalsIgnoreCase("true")) {
            return true;
        }
        if (startFull.strip().equalsIgnoreCase("false")) {
            return false;
        }
        throw new CommandLine.ParameterException(spec.commandLine(), "Invalid value for option '--start-full': expected true or false");
    }
}
