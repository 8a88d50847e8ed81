"""The repository's HAProxy configuration (net/deploy/haproxy.cfg) in front of two nodes: one
address, one host key, players served by different nodes; a node killed, the player comes
back through the same address to the other and finishes."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
from pathlib import Path

import pytest
from server_harness import Seat, new_key, registered_pair
from server_process import REPO, ServerProcess, free_port
from ssh_harness import ScreenClient

from net.store import Store

CONFIG = REPO / "net" / "deploy" / "haproxy.cfg"
NODE = ("--shared", "--bot-delay", "0.05", "--proxy-protocol")


@pytest.fixture
def haproxy() -> str:
    found = shutil.which("haproxy")
    if found is None:
        if os.environ.get("ECARTE_REQUIRE_SERVICES") == "1":
            pytest.fail("HAProxy is required here (apt-get install haproxy)")
        pytest.skip("HAProxy is not installed")
    return found


async def start_proxy(binary: str, listen: int, nodes: list[int]) -> asyncio.subprocess.Process:
    env = {**os.environ, "ECARTE_LISTEN": f"127.0.0.1:{listen}",
           "ECARTE_NODE1": f"127.0.0.1:{nodes[0]}", "ECARTE_NODE2": f"127.0.0.1:{nodes[1]}"}
    proc = await asyncio.create_subprocess_exec(
        binary, "-db", "-f", str(CONFIG), env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    for _ in range(100):  # until it accepts
        try:
            _, w = await asyncio.open_connection("127.0.0.1", listen)
            w.close()
            return proc
        except OSError:
            await asyncio.sleep(0.05)
    raise AssertionError("haproxy did not start")


def player_nodes(data: Path, code: str) -> dict[str, str]:
    """Player name -> the node serving his session at the table (the club's presence)."""
    store = Store(data / "club.db")
    try:
        rows = store._db.execute(
            "SELECT pl.name, p.node FROM presence p JOIN players pl ON pl.id = p.member "
            "WHERE p.code = ?", (code,)).fetchall()
    finally:
        store.close()
    return {str(name): str(node) for name, node in rows}


async def test_two_nodes_behind_haproxy_are_one_club(tmp_path, haproxy):
    data = tmp_path / "data"
    nodes = [ServerProcess(data, free_port(), *NODE) for _ in range(2)]
    banners = [await n.start() for n in nodes]
    prints = {line for b in banners for line in b.splitlines() if "fingerprint" in line}
    assert len(prints) == 1, "both nodes show the one host key"
    port = free_port()
    proxy = await start_proxy(haproxy, port, [n.port for n in nodes])
    keys = {"anna": new_key(), "ben": new_key()}
    try:
        await asyncio.sleep(2.5)  # the first health checks have marked both nodes up
        probe = await ScreenClient.connect(port, size=(80, 24), username="probe")
        assert probe.conn is not None
        seen = probe.conn.get_server_host_key()
        assert seen is not None and f"host key fingerprint: {seen.get_fingerprint()}" in \
            next(iter(prints))
        await probe.close()

        anna, ben, code = await registered_pair(port, keys)  # both through HAProxy
        await anna.wait_for("Draw for the deal")
        where = player_nodes(data, code)
        assert set(where) == {"anna", "ben"} and where["anna"] != where["ben"], \
            "leastconn: one player per node"

        def mid_hand(screen: str) -> bool:
            return "trick 2/5" in screen.split("\n", 1)[0]

        await asyncio.gather(anna.play(until=mid_hand), ben.play(until=mid_hand))
        # ben's node dies; ben comes back through the same address, to the other node
        ben_node = next(n for n in nodes if n.proc is not None
                        and where["ben"].endswith(f":{n.proc.pid}"))
        ben_node.kill()
        await ben_node.wait()
        await ben.close()
        await asyncio.sleep(4.5)  # two failed health checks: the node is marked down
        ben = await Seat.connect(port, "ben", seed=3, key=keys["ben"])
        await ben.wait_for("Welcome back")
        end_a, end_b = await asyncio.gather(anna.play(), ben.play())
        assert ("You win the match!" in end_a) != ("You win the match!" in end_b)
        for c in (anna, ben):
            await c.close()
    finally:
        proxy.send_signal(signal.SIGTERM)
        await proxy.wait()
        for n in nodes:
            await n.stop()
