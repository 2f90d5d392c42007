/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test runner for the standalone build of the rdma module: the TestSuites
 * compiled into this program register themselves, and ns-3's TestRunner
 * selects and runs them (--list, --suite=NAME, --verbose, ...).
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
