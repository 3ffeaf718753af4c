package io.quotaflow.cli;

import io.quotaflow.settings.Keys;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.ConfigValues;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.QuotaSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code quotaflow run}: the pipeline against a real cluster and a real provider. */
@Command(name = "run", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Run the pipeline against a Kafka cluster and an LLM provider.",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Runs until stopped (Ctrl+C or SIGTERM: commits and closes cleanly). Applies topics/ first. "
                    + "Instances started with the same application id share the work and the quota.",
            "",
            "At start every route's provider is checked in the background (GET {base}/models: reachable, key, model; "
                    + "no call), then followed by every call's answer: the log names a route that cannot serve and why, "
                    + "/status shows each route's state. `quotaflow check` tests all of it before a deployment.",
            "",
            "The API key comes from QUOTAFLOW_LLM_API_KEY or --llm-api-key-file, never from a flag value. "
                    + "Settings: built-in defaults, then --config FILE, then QUOTAFLOW_* variables, then flags; "
                    + "an unknown key stops the start (exit 2).",
            "",
            "Several routes (models, keys, limits, fallbacks): routes=a,b and route.<name>.* keys (route.a.model, "
                    + "route.a.api-key-env, route.a.rpm, route.a.fallback, ...) in --config FILE or as "
                    + "QUOTAFLOW_ROUTE_<NAME>_<KEY> variables, with routing.* rules and cache.ttl; the --llm-* options, "
                    + "--rpm and --tpm then give what a route does not set. Without routes they define one route, default.",
            "",
            "HTTP on --http-bind:--http-port (http.bind, http.port): GET /health/live (liveness: the "
                    + "streams run; a halted route does not fail it), /health/ready (readiness: running, no "
                    + "route halted), /metrics (Prometheus), /status (JSON) and /tickets/{id} (one ticket's state and ETA; "
                    + "any instance answers, asking the others when it does not own the ticket's route); HEAD as well. "
                    + "http.auth-token-file makes /status and /tickets/{id} require a bearer token (probes and /metrics "
                    + "stay open); http.tls.* serves HTTPS (docs/operations.md, \"HTTP endpoints\")."
        },
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:stopped cleanly on Ctrl+C or SIGTERM",
            "1:the cluster did not answer, the pipeline failed, or it did not close within 60 s of the signal",
            "2:usage or configuration error (unknown key, bad value, port in use)"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  export QUOTAFLOW_LLM_API_KEY=sk-...",
            "  export QUOTAFLOW_BOOTSTRAP_SERVERS=localhost:9092",
            "  quotaflow run --llm-base-url https://api.openai.com/v1 --rpm 500 --tpm 200000",
            "  quotaflow run --config /etc/quotaflow/quotaflow.properties --http-port 9464",
            "  quotaflow run --config q.properties --http-bind 127.0.0.1",
            "  quotaflow run --config routes.properties    # routes=primary,backup,long ..."
        })
public final class RunCommand implements Callable<Integer> {

    /** How long a SIGTERM waits for the streams to commit and close (deploy/kubernetes' grace period exceeds {@link #STOP_WAIT}). */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);

    /** How long the shutdown hook waits for the stop before the JVM exits anyway. */
    static final Duration STOP_WAIT = Duration.ofSeconds(65);

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    KafkaConnectionOptions kafka = new KafkaConnectionOptions();

    @Mixin
    LlmOptions llm = new LlmOptions();

    @Option(names = "--application-id", description = "Kafka Streams application id (application.id; default <topics.prefix>quotaflow).")
    String applicationId;

    @Option(names = "--instance-id", description = "Static group membership id: auto (default; from host name and state dir, "
            + "so a restarted instance rejoins at once), none (dynamic membership), or a value unique per instance.")
    String instanceId;

    @Option(names = "--state-dir", description = "Local state directory.")
    Path stateDir;

    @Option(names = "--http-port", paramLabel = "PORT", description = "Port of /health/live, /health/ready, /metrics and /status "
            + "(default 8080; 0 any free port; -1 turns them off).")
    Integer httpPort;

    @Option(names = "--http-bind", paramLabel = "ADDRESS", description = "Address those endpoints listen on "
            + "(default 0.0.0.0, every interface; 127.0.0.1 keeps them local).")
    String httpBind;

    @Override
    public Integer call() throws Exception {
        ConfigValues values = settings();
        QuotaflowConfig config = config(values);
        PortCheck.Result port = PortCheck.check(config.httpPort());
        if (port instanceof PortCheck.InUse inUse) {
            throw new ParameterException(spec.commandLine(), "port " + inUse.port() + " is in use (http.port from "
                    + values.origin(Keys.HTTP_PORT) + "): stop what holds it, or choose another with --http-port or "
                    + ConfigLoader.envName(Keys.HTTP_PORT) + " (0: any free port, -1: off)");
        }
        Integer unreachable = ClusterPreflight.check(kafka.cluster(), "run", spec.commandLine().getErr());
        if (unreachable != null) {
            return unreachable;
        }
        Optional<String> refused = TopicsAtStart.prepare(TopicsAtStart.mode(values.string(Keys.TOPICS_MANAGE)),
                TopicsApplier.bundled().withPrefix(config.topics().prefix())
                        .withTenantTopics(config.dispatcher().tenants().access(), config.topics()), config.bootstrapServers(), config.kafka(),
                spec.commandLine().getErr());
        if (refused.isPresent()) {
            spec.commandLine().getErr().println("quotaflow run: " + refused.get());
            return ExitCodes.USAGE;
        }
        Pipeline pipeline = Pipeline.start(config);
        // the hook only signals and waits; this thread closes, so the exit status is the close's (GracefulStop)
        GracefulStop stop = GracefulStop.install("run", () -> { }, STOP_WAIT);
        System.err.println(startedLine(config, pipeline.httpPort()));
        stop.awaitStopRequest();
        try {
            return stopped(pipeline::close, org.apache.kafka.common.utils.Time.SYSTEM, spec.commandLine().getErr());
        } finally {
            stop.close();
        }
    }

    /**
     * Closes the pipeline with {@code close} (commit, leave the group; whether the streams closed in time) within {@link #CLOSE_TIMEOUT} and says so: a line
     * before and one after, with how long it took. {@link ExitCodes#OK} when the streams closed in time,
     * else {@link ExitCodes#FAILURE}.
     */
    static int stopped(java.util.function.Predicate<Duration> close, org.apache.kafka.common.utils.Time time, java.io.PrintWriter err) {
        err.println("quotaflow: stopping (committing and closing cleanly)...");
        long started = time.milliseconds();
        boolean closed = close.test(CLOSE_TIMEOUT);
        String took = String.format(Locale.ROOT, "%.1f s", (time.milliseconds() - started) / 1000.0);
        err.println(closed ? "quotaflow: stopped (committed and closed in " + took + ")"
                : "quotaflow: stopped without a clean close (the streams did not close within " + CLOSE_TIMEOUT.toSeconds()
                        + " s; gave up after " + took + ")");
        err.flush();
        return closed ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** Every source merged with this command's flags, keyed by configuration key. */
    ConfigValues settings() {
        Map<String, String> flags = new LinkedHashMap<>();
        llm.putInto(flags);
        put(flags, Keys.APPLICATION_ID, applicationId);
        put(flags, Keys.STATE_DIR, stateDir);
        put(flags, Keys.INSTANCE_ID, instanceId);
        put(flags, Keys.HTTP_PORT, httpPort);
        put(flags, Keys.HTTP_BIND, httpBind);
        return kafka.settings(flags);
    }

    /** The run's configuration from {@code values}; a problem is a usage error (exit 2). */
    QuotaflowConfig config(ConfigValues values) {
        try {
            return ConfigLoader.load(values, kafka.environment);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /**
     * {@code quotaflow running: application id quotaflow, quota scope …, model gpt-4o-mini at URL;
     * http://0.0.0.0:8080 serves /health/live, /health/ready, /metrics, /status, /tickets/{id}}; the HTTP part
     * names the scheme ({@code https} with {@code http.tls.*}), the bind address ({@code http.bind}) and the
     * port actually bound, and whether a token guards {@code /status}, or says it is off.
     */
    static String startedLine(QuotaflowConfig config, int boundPort) {
        var model = config.dispatcher().model();
        String http = boundPort > 0
                ? config.http().scheme() + "://" + hostPart(config.httpBind()) + ":" + boundPort
                        + " serves /health/live, /health/ready, /metrics, /status, /tickets/{id}"
                        + (config.http().token().isPresent() ? " (/status and /tickets/{id} with the bearer token)" : "")
                : "HTTP endpoints off (http.port -1)";
        var routes = config.dispatcher().routing().routes();
        if (routes.size() > 1 || !routes.containsKey(RouteSettings.DEFAULT_NAME)) {
            StringBuilder sb = new StringBuilder();
            routes.values().forEach(r -> sb.append(sb.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT,
                    "%s (scope %s, %s RPM, %s TPM, model %s at %s)", r.name(), r.scope(), QuotaSettings.limitText(r.quota().rpm()),
                    QuotaSettings.limitText(r.quota().tpm()),
                    r.model().model(), r.model().apiKey().redact(io.quotaflow.settings.Redactor.url(r.model().baseUrl())))));
            return String.format(Locale.ROOT, "quotaflow running: application id %s, routes %s; default %s; %s",
                    config.applicationId(), sb, config.dispatcher().routing().defaultRoute(), http);
        }
        return String.format(Locale.ROOT, "quotaflow running: application id %s, quota scope %s (%s RPM, %s TPM), "
                        + "model %s at %s; %s", config.applicationId(), config.dispatcher().scope(),
                QuotaSettings.limitText(config.dispatcher().quota().rpm()), QuotaSettings.limitText(config.dispatcher().quota().tpm()),
                model.model(),
                model.apiKey().redact(io.quotaflow.settings.Redactor.url(model.baseUrl())), http);
    }

    /** An IPv6 literal in brackets, as in a URL. */
    private static String hostPart(String bind) {
        return bind.contains(":") && !bind.startsWith("[") ? "[" + bind + "]" : bind;
    }

    private static void put(Map<String, String> flags, String key, Object value) {
        if (value != null) {
            flags.put(key, value.toString());
        }
    }
}
