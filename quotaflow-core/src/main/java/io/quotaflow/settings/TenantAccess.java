package io.quotaflow.settings;

import io.quotaflow.records.Priority;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a ticket's tenant comes from and which tenants exist (docs/design.md, "Tenants"; docs/operations.md,
 * "Tenants and access"): {@code tenants.from}, {@code tenants.allowed}, {@code tenants.unknown} and each tenant's
 * {@code tenant.<name>.principal}. Immutable; built with {@link #builder()}, which validates.
 *
 * @param from       the source of a ticket's tenant
 * @param allowed    the known tenants; empty: every tenant name is known
 * @param unknown    what intake does with a ticket of a tenant not in {@code allowed}
 * @param principals each tenant's Kafka principal ({@code User:alice}), for {@link From#PRINCIPAL}
 */
public record TenantAccess(From from, Set<String> allowed, Unknown unknown, Map<String, String> principals) {

    /** The tenant every ticket without one belongs to (and unknown tenants map to under {@link Unknown#DEFAULT}). */
    public static final String DEFAULT_TENANT = "default";
    /** Tenant names of the per-tenant topics: they are part of a topic name. */
    public static final String TOPIC_TENANT = "[A-Za-z0-9_-]{1,100}";

    /** The safe default: the key names the tenant, every tenant known. */
    public static final TenantAccess DEFAULT = builder().build();

    /** Where the tenant comes from ({@code tenants.from}). */
    public enum From {
        /** The record key's {@code tenant:} prefix; the body's tenant must agree. */
        KEY,
        /** The per-tenant input topic, {@code tickets.<tenant>.<priority>}; the body's tenant must agree. */
        TOPIC,
        /** The producer's Kafka principal, through per-tenant topics only it may write (Kafka ACLs). */
        PRINCIPAL,
        /** The body's {@code tenant} field, trusting every producer. */
        BODY;

        public static From parse(String value) {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        }

        /** Whether the tenant comes from the per-tenant topic a record is on. */
        public boolean byTopic() {
            return this == TOPIC || this == PRINCIPAL;
        }
    }

    /** What happens to a ticket of an unknown tenant ({@code tenants.unknown}). */
    public enum Unknown {
        /** Dead-lettered {@code unknown-tenant}. */
        DEAD_LETTER,
        /** Taken as the {@value #DEFAULT_TENANT} tenant's. */
        DEFAULT;

        public static Unknown parse(String value) {
            return valueOf(value.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    public TenantAccess {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(unknown, "unknown");
        allowed = Collections.unmodifiableSet(new TreeSet<>(allowed));
        principals = Collections.unmodifiableMap(new TreeMap<>(principals));
    }

    /** Whether {@code tenant} is known: the default tenant always is, the others when listed (or no list is set). */
    public boolean known(String tenant) {
        return allowed.isEmpty() || DEFAULT_TENANT.equals(tenant) || allowed.contains(tenant);
    }

    /** {@code tenant}'s input topic of {@code priority}: {@code <prefix>tickets.<tenant>.<class>}. */
    public static String topic(TopicNames topics, String tenant, Priority priority) {
        return topics.name("tickets." + tenant + "." + priority.name().toLowerCase(Locale.ROOT));
    }

    /** The per-tenant input topics (empty unless {@link From#byTopic()}), each with its tenant and priority. */
    public Map<String, TenantTopic> topics(TopicNames names) {
        Map<String, TenantTopic> out = new LinkedHashMap<>();
        if (from.byTopic()) {
            for (String tenant : allowed) {
                for (Priority p : Priority.values()) {
                    out.put(topic(names, tenant, p), new TenantTopic(tenant, p));
                }
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** The tenant and priority a per-tenant topic stands for. */
    public record TenantTopic(String tenant, Priority priority) {
    }

    /** {@code tenant}'s principal, if configured. */
    public Optional<String> principal(String tenant) {
        return Optional.ofNullable(principals.get(tenant));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects the options; {@link #build()} checks them together. */
    public static final class Builder {
        private From from = From.KEY;
        private final Set<String> allowed = new TreeSet<>();
        private Unknown unknown = Unknown.DEAD_LETTER;
        private final Map<String, String> principals = new TreeMap<>();

        public Builder from(From value) {
            from = Objects.requireNonNull(value, "from");
            return this;
        }

        public Builder allowed(Iterable<String> tenants) {
            tenants.forEach(t -> allowed.add(t.strip()));
            return this;
        }

        public Builder unknown(Unknown value) {
            unknown = Objects.requireNonNull(value, "unknown");
            return this;
        }

        public Builder principal(String tenant, String principal) {
            principals.put(tenant, principal.strip());
            return this;
        }

        public TenantAccess build() {
            for (String t : allowed) {
                QuotaSettings.require(io.quotaflow.records.TicketKey.validTenant(t), "tenants.allowed: '" + Redactor.scrub(t)
                        + "' is not a tenant name (1 to 128 characters, no ':' or control characters)");
                QuotaSettings.require(!from.byTopic() || t.matches(TOPIC_TENANT), "tenants.allowed: with tenants.from="
                        + name(from) + " a tenant name is part of a topic name: letters, digits, '_' or '-', got '"
                        + Redactor.scrub(t) + "'");
            }
            QuotaSettings.require(!from.byTopic() || !allowed.isEmpty(), "tenants.from=" + name(from)
                    + " needs tenants.allowed: it declares one input topic per listed tenant");
            if (from == From.PRINCIPAL) {
                Set<String> missing = new TreeSet<>(allowed);
                missing.removeAll(principals.keySet());
                QuotaSettings.require(missing.isEmpty(), "tenants.from=principal needs tenant.<name>.principal for every "
                        + "tenant of tenants.allowed; missing: " + String.join(", ", missing));
                QuotaSettings.require(allowed.containsAll(principals.keySet()), "tenant.<name>.principal names a tenant "
                        + "not in tenants.allowed");
                QuotaSettings.require(principals.values().stream().allMatch(p -> p.matches("[A-Za-z]+:.+")),
                        "tenant.<name>.principal must be a Kafka principal, TYPE:NAME (e.g. User:alice)");
            }
            return new TenantAccess(from, allowed, unknown, principals);
        }

        private static String name(From value) {
            return value.name().toLowerCase(Locale.ROOT);
        }
    }
}
