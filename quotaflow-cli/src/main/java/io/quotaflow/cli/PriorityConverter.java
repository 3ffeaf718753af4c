package io.quotaflow.cli;

import io.quotaflow.records.Priority;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Converts {@code interactive|standard|bulk} (any case) to a {@link Priority}. */
public final class PriorityConverter implements ITypeConverter<Priority> {

    @Override
    public Priority convert(String value) {
        return Priority.parse(value).orElseThrow(() ->
                new TypeConversionException("'" + value + "' is not a priority; expected interactive, standard or bulk"));
    }
}
