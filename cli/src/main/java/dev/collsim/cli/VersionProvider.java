package dev.collsim.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports collsim's version from the jar manifest. */
public final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[] {"collsim " + (v == null ? "dev" : v)};
    }
}
