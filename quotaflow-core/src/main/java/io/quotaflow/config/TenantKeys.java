package io.quotaflow.config;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import io.quotaflow.settings.Redactor;

/**
 * The pattern keys of tenants (docs/design.md, "Tenants"): {@code tenant.<name>.weight|tpm|rpm} for
 * any tenant name, and their variables {@code QUOTAFLOW_TENANT_<NAME>_WEIGHT|TPM|RPM} (the name
 * lower-cased, {@code _} read as {@code -}). The sub-keys, their types and rules are rows of
 * {@link ConfigKeys}; {@link RouteKeys} hands tenant keys here.
 */
final class TenantKeys {

    static final String PREFIX = "tenant.";
    static final String NAME = "<name>";
    static final String ENV = ConfigKeys.ENV_PREFIX + "TENANT_";

    private TenantKeys() {
    }

    /** Every sub-key of {@code tenant.<name>.}, in table order. */
    static List<String> subKeys() {
        String prefix = PREFIX + NAME + ".";
        return ConfigKeys.templates().stream().filter(t -> t.startsWith(prefix)).map(t -> t.substring(prefix.length())).toList();
    }

    /** {@code tenant.<tenant>.<sub>}. */
    static String key(String tenant, String sub) {
        return PREFIX + tenant + "." + sub;
    }

    static boolean isCandidate(String key) {
        return key.startsWith(PREFIX) && !ConfigKeys.isKnown(key);
    }

    /** {@code tenant.acme.weight} ⇒ {@code tenant.<name>.weight}. */
    static Optional<String> templateOf(String key) {
        int dot = key.lastIndexOf('.');
        if (!key.startsWith(PREFIX) || dot <= PREFIX.length()) {
            return Optional.empty();
        }
        String sub = key.substring(dot + 1);
        return subKeys().contains(sub) ? Optional.of(PREFIX + NAME + "." + sub) : Optional.empty();
    }

    /** Why the candidate {@code key} is refused, or empty when it is a tenant's key. */
    static Optional<String> problem(String key, String where) {
        if (templateOf(key).isPresent()) {
            return Optional.empty();
        }
        return Optional.of("unknown key '" + Redactor.scrub(key) + "' " + where + "; a tenant key is tenant.<name>."
                + String.join("|", subKeys()));
    }

    static boolean isPatternVariable(String variable) {
        return variable.startsWith(ENV) && variable.length() > ENV.length();
    }

    /** The key a {@code QUOTAFLOW_TENANT_*} variable sets. */
    static RouteKeys.Resolution resolve(String variable) {
        String rest = variable.substring(ENV.length());
        for (String sub : subKeys()) {
            String tail = "_" + sub.toUpperCase(Locale.ROOT).replace('-', '_');
            if (rest.endsWith(tail) && rest.length() > tail.length()) {
                String tenant = rest.substring(0, rest.length() - tail.length()).toLowerCase(Locale.ROOT).replace('_', '-');
                return new RouteKeys.Resolved(key(tenant, sub));
            }
        }
        return new RouteKeys.Unresolved("unknown environment variable " + variable + "; a tenant variable is "
                + ENV + "<NAME>_" + String.join("|", subKeys()).toUpperCase(Locale.ROOT));
    }
}
