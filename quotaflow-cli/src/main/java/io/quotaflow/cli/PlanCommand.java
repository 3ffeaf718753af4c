package io.quotaflow.cli;

import io.quotaflow.settings.Keys;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.capacity.CapacityPlan;
import io.quotaflow.capacity.TicketSample;
import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.ConfigValues;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.records.Json;
import io.quotaflow.records.Ticket;
import io.quotaflow.records.TicketKey;
import io.quotaflow.records.TicketParser;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

/** {@code quotaflow plan}: seed 004's capacity formula, from figures given or measured on real tickets. */
@Command(name = "plan", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Plan capacity: binding limit, safe rate, calls in flight, drain time.",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Each limit's ceiling in requests a minute (RPM as given; TPM divided by the tokens a request), the "
                    + "binding one, the safe rate (the binding ceiling times --safety-factor), the calls that must be in "
                    + "flight to keep that rate busy (Little's law: rate x latency) and, with --backlog, how long the "
                    + "backlog takes.",
            "",
            "With --tickets FILE (JSON lines as `publish` reads them) the tokens a request and the tickets a request "
                    + "are measured: the tickets are grouped into calls as the dispatcher groups them (batch.max-items, "
                    + "batch.max-prompt-tokens), each prompt counted with the route's tokenizer and quotaflow's prompt, "
                    + "plus each call's max_tokens as the first calls send it (a TPM limit counts both at admission; the "
                    + "pipeline then learns a tighter max_tokens, so this errs high). Nothing is sent anywhere.",
            "",
            "--rpm, --tpm and the model come from the flags, else from --config / QUOTAFLOW_* (quota.rpm, quota.tpm, "
                    + "llm.model, llm.encoding; route.NAME.* with --route)."
        },
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the plan was printed",
            "1:the tickets file cannot be read or holds no valid ticket",
            "2:usage error (a missing or invalid figure)"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  quotaflow plan --rpm 1000 --tpm 2000000 --tokens-per-request 4000 \\",
            "      --latency-s 3 --safety-factor 0.8",
            "  quotaflow plan --rpm 500 --tpm 30000 --tickets tickets.jsonl \\",
            "      --latency-s 2 --backlog 50000"
        })
public final class PlanCommand implements Callable<Integer>, ReadsEnvironment {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Option(names = "--rpm", paramLabel = "R|none", description = "The provider's requests per minute (quota.rpm); "
            + "none: no such limit, as run accepts.")
    String rpm;

    @Option(names = "--tpm", paramLabel = "T|none", description = "The provider's tokens per minute (quota.tpm); "
            + "none: no such limit.")
    String tpm;

    @Option(names = "--tokens-per-request", paramLabel = "N",
            description = "Tokens one request is counted for (prompt + max_tokens); or measure them with --tickets.")
    Double tokensPerRequest;

    @Option(names = "--tickets-per-request", paramLabel = "N",
            description = "Tickets one request carries (default 1; measured with --tickets).")
    Double ticketsPerRequest;

    @Option(names = "--latency-s", paramLabel = "L", required = true, description = "Seconds one call takes.")
    double latencySeconds;

    @Option(names = "--safety-factor", paramLabel = "F", defaultValue = "0.8",
            description = "Share of the binding ceiling to plan for, in (0, 1] (default ${DEFAULT-VALUE}).")
    double safetyFactor;

    @Option(names = "--backlog", paramLabel = "N", description = "Tickets waiting: prints the time to drain them.")
    Long backlog;

    @Option(names = "--tickets", paramLabel = "FILE", description = "Measure tokens and tickets a request on these tickets (- for stdin).")
    String tickets;

    @Option(names = "--route", paramLabel = "NAME", description = "Read the model, encoding and limits of route.NAME.* from the config.")
    String route;

    @Option(names = "--model", paramLabel = "M", description = "Model whose tokenizer counts the --tickets (llm.model); only with --tickets.")
    String model;

    @Option(names = "--config", paramLabel = "FILE", description = "Properties file of settings (docs/configuration.md).")
    Path configFile;

    @Option(names = "--json", description = "Print the plan as one JSON object.")
    boolean json;

    Map<String, String> environment = System.getenv();

    private Set<String> extraVariables = Set.of();

    @Override
    public void environment(Map<String, String> env, Set<String> extraVariables) {
        this.environment = Map.copyOf(env);
        this.extraVariables = Set.copyOf(extraVariables);
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ConfigValues values;
        try {
            values = ConfigLoader.resolve(configFile, environment, Map.of(), extraVariables);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (model != null && tickets == null) {
            throw new ParameterException(spec.commandLine(), "--model names the tokenizer that counts --tickets FILE: give --tickets, "
                    + "or leave --model out");
        }
        List<String> routes = values.get(Keys.ROUTES).isPresent() ? values.list(Keys.ROUTES)
                : List.of(io.quotaflow.settings.RouteSettings.DEFAULT_NAME);
        if (route != null && !routes.contains(route)) {
            throw new ParameterException(spec.commandLine(), "--route " + route + " is not a route of the configuration (routes: "
                    + String.join(", ", routes) + ")");
        }
        Optional<TicketSample> sample;
        try {
            sample = tickets == null ? Optional.empty() : Optional.of(measure(values));
        } catch (IOException | IllegalArgumentException e) {
            err.println("plan: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        CapacityPlan plan = plan(values, sample);
        out.print(json ? PlanText.json(plan, sample).toString() + "\n" : PlanText.text(plan, sample));
        out.flush();
        return ExitCodes.OK;
    }

    /** The plan from the flags, the configuration and the measured sample; a missing or invalid figure is a usage error. */
    private CapacityPlan plan(ConfigValues values, Optional<TicketSample> sample) {
        if (sample.isEmpty() && tokensPerRequest == null) {
            throw new ParameterException(spec.commandLine(), "give --tokens-per-request, or --tickets FILE to measure it");
        }
        OptionalLong r = rpm != null ? limit(Optional.of(rpm), "--rpm") : given(values, "rpm", Keys.QUOTA_RPM);
        OptionalLong t = tpm != null ? limit(Optional.of(tpm), "--tpm") : given(values, "tpm", Keys.QUOTA_TPM);
        double tokens = tokensPerRequest != null ? tokensPerRequest : sample.orElseThrow().tokensPerRequest();
        double perRequest = ticketsPerRequest != null ? ticketsPerRequest : sample.map(TicketSample::ticketsPerRequest).orElse(1.0);
        OptionalLong waiting = backlog == null ? OptionalLong.empty() : OptionalLong.of(backlog);
        try {
            return CapacityPlan.of(new CapacityPlan.Inputs(r, t, tokens, Duration.ofNanos(Math.round(latencySeconds * 1e9)),
                    safetyFactor, perRequest, waiting));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /** {@code route.NAME.key} when {@code --route} is given and it is set, else {@code global} when given. */
    private OptionalLong given(ConfigValues values, String routeKey, String global) {
        Optional<String> value = routeValue(values, routeKey).or(() -> values.isGiven(global) ? values.get(global) : Optional.empty());
        return limit(value, global);
    }

    /** A limit's {@code value}: a positive integer, or {@code none} (the route sets no such limit: a self-hosted engine). */
    private OptionalLong limit(Optional<String> value, String name) {
        try {
            // none: the route sets no such limit (a self-hosted engine)
            // auto: the default the run starts from (it then learns from the provider)
            OptionalLong limit = value.filter(v -> !v.strip().equalsIgnoreCase("none")).map(v -> OptionalLong.of(v.strip().equalsIgnoreCase("auto")
                    ? (name.endsWith("rpm") ? QuotaSettings.ofDefaults().rpm() : QuotaSettings.ofDefaults().tpm())
                    : Long.parseLong(v.strip()))).orElse(OptionalLong.empty());
            if (limit.isPresent() && limit.getAsLong() <= 0) {
                throw new NumberFormatException();
            }
            return limit;
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), name + " must be a positive integer, auto or none, got '" + value.orElse("") + "'");
        }
    }

    private Optional<String> routeValue(ConfigValues values, String key) {
        return route == null ? Optional.empty() : values.get("route." + route + "." + key);
    }

    private TicketSample measure(ConfigValues values) throws IOException {
        String m = model != null ? model : routeValue(values, "model").orElse(values.string(Keys.LLM_MODEL));
        String encoding = routeValue(values, "encoding").orElse(values.get(Keys.LLM_ENCODING).orElse(null));
        // the prompt is built as the route builds it; the URL and key are never used: nothing is sent
        ModelSettings settings = new ModelSettings(URI.create("http://plan.invalid/v1"), m, Secret.of("unused"), Duration.ofSeconds(60),
                encoding, 128_000, values.list(Keys.CLASSIFY_CATEGORIES), values.list(Keys.CLASSIFY_URGENCIES));
        BatchSettings batch = new BatchSettings(values.integer(Keys.BATCH_MAX_ITEMS), values.integer(Keys.BATCH_MAX_PROMPT_TOKENS),
                BatchSettings.ofDefaults().punctuateInterval(), values.integer(Keys.BATCH_COMPLETION_TOKENS_PER_ITEM));
        List<ModelItem> items = read();
        if (items.isEmpty()) {
            throw new IllegalArgumentException("no valid ticket in " + tickets);
        }
        return TicketSample.measure(items, new PromptBuilder(settings), batch);
    }

    /** The valid tickets of the file, one JSON object a line; invalid lines are skipped, as intake would dead-letter them. */
    private List<ModelItem> read() throws IOException {
        List<ModelItem> items = new ArrayList<>();
        try (BufferedReader in = tickets.equals("-")
                ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(Path.of(tickets), StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                if (TicketParser.parse(line.getBytes(StandardCharsets.UTF_8)) instanceof TicketParser.Valid valid) {
                    Ticket ticket = valid.ticket();
                    items.add(new ModelItem(TicketKey.of(ticket).key(), ticket.subject(), ticket.body()));
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException("no such file: " + tickets, e);
        }
        return items;
    }

    /** The plan as text and JSON. */
    static final class PlanText {

        private PlanText() {
        }

        static String text(CapacityPlan plan, Optional<TicketSample> sample) {
            CapacityPlan.Inputs in = plan.inputs();
            StringBuilder sb = new StringBuilder();
            sample.ifPresent(s -> sb.append(String.format(Locale.ROOT, "measured          %,d tickets in %,d calls: %.1f tickets, %,.0f tokens "
                    + "a call (%,.0f prompt + %,.0f max_tokens), %,.0f tokens a ticket%n", s.tickets(), s.requests(), s.ticketsPerRequest(),
                    s.tokensPerRequest(), (double) s.promptTokens() / s.requests(), (double) s.maxTokens() / s.requests(), s.tokensPerTicket())));
            sb.append(String.format(Locale.ROOT, "limits            %s, %s; %,.0f tokens a request; %s s a call; safety factor %s%n",
                    in.rpm().isPresent() ? String.format(Locale.ROOT, "%,d RPM", in.rpm().getAsLong()) : "no RPM limit",
                    in.tpm().isPresent() ? String.format(Locale.ROOT, "%,d TPM", in.tpm().getAsLong()) : "no TPM limit",
                    in.tokensPerRequest(), seconds(in.latency()), trim(in.safetyFactor())));
            sb.append(String.format(Locale.ROOT, "ceilings          RPM allows %s requests a minute; TPM allows %s requests a minute%n",
                    plan.rpmCeiling().isPresent() ? String.format(Locale.ROOT, "%,.0f", plan.rpmCeiling().getAsDouble()) : "any number of",
                    plan.tpmCeiling().isPresent() ? String.format(Locale.ROOT, "%,.0f", plan.tpmCeiling().getAsDouble()) : "any number of"));
            sb.append(String.format(Locale.ROOT, "binding limit     %s%n", plan.binding()));
            sb.append(String.format(Locale.ROOT, "safe rate         %,.0f requests a minute (%.2f a second)%s%n", plan.safeRequestsPerMinute(),
                    plan.safeRequestsPerMinute() / 60, in.ticketsPerRequest() == 1 ? ""
                            : String.format(Locale.ROOT, "; %,.0f tickets a minute", plan.safeTicketsPerMinute())));
            sb.append(String.format(Locale.ROOT, "in flight         %d (Little's law: %.2f a second x %s s)%n", plan.inFlight(),
                    plan.safeRequestsPerMinute() / 60, seconds(in.latency())));
            plan.drain().ifPresent(d -> sb.append(String.format(Locale.ROOT, "backlog           %,d tickets drain in %s%n",
                    in.backlog().getAsLong(), human(d))));
            return sb.toString();
        }

        static ObjectNode json(CapacityPlan plan, Optional<TicketSample> sample) {
            CapacityPlan.Inputs in = plan.inputs();
            ObjectNode node = Json.MAPPER.createObjectNode();
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("rpm", in.rpm().isPresent() ? in.rpm().getAsLong() : null);
            fields.put("tpm", in.tpm().isPresent() ? in.tpm().getAsLong() : null);
            fields.put("tokensPerRequest", in.tokensPerRequest());
            fields.put("ticketsPerRequest", in.ticketsPerRequest());
            fields.put("latencySeconds", in.latency().toNanos() / 1e9);
            fields.put("safetyFactor", in.safetyFactor());
            fields.put("rpmCeiling", plan.rpmCeiling().isPresent() ? plan.rpmCeiling().getAsDouble() : null);
            fields.put("tpmCeiling", plan.tpmCeiling().isPresent() ? plan.tpmCeiling().getAsDouble() : null);
            fields.put("binding", plan.binding().name().toLowerCase(Locale.ROOT));
            fields.put("safeRequestsPerMinute", plan.safeRequestsPerMinute());
            fields.put("safeTicketsPerMinute", plan.safeTicketsPerMinute());
            fields.put("inFlight", plan.inFlight());
            fields.put("backlog", in.backlog().isPresent() ? in.backlog().getAsLong() : null);
            fields.put("drainSeconds", plan.drain().map(d -> d.toMillis() / 1000.0).orElse(null));
            fields.forEach((k, v) -> node.set(k, Json.MAPPER.valueToTree(v)));
            sample.ifPresent(s -> {
                ObjectNode m = node.putObject("measured");
                m.put("tickets", s.tickets());
                m.put("requests", s.requests());
                m.put("promptTokens", s.promptTokens());
                m.put("maxTokens", s.maxTokens());
                m.put("tokensPerTicket", s.tokensPerTicket());
            });
            return node;
        }

        private static String seconds(Duration d) {
            return trim(d.toNanos() / 1e9);
        }

        private static String trim(double v) {
            String s = String.format(Locale.ROOT, "%.3f", v);
            return s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }

        private static String human(Duration d) {
            long s = Math.round(d.toMillis() / 1000.0);
            if (s < 60) {
                return s + " s";
            }
            if (s < 3_600) {
                return (s / 60) + " min " + (s % 60) + " s";
            }
            return (s / 3_600) + " h " + (s % 3_600 / 60) + " min";
        }
    }
}
