"""The interactive loop: read a line, run a turn of the graph, ask for approvals, render what happens."""

from __future__ import annotations

import copy
import json
import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

from sandboxes.errors import UserError
from tools.registry import Toolbox

from agents.chat.config import ChatConfig
from agents.chat.graph import CANCELLED_TEXT, ChatEnv, build_chat_graph, pending_calls
from agents.chat.policy import ApprovalPolicy
from agents.chat.lineinput import LineReader
from agents.chat.render import (TokenPrinter, arguments_text, call_panel, clip, clipped, make_console, plain, result_panel,
                                usage_line)
from agents.runtime.config import config_file
from agents.runtime.models.accounting import AccountedModel
from agents.runtime.models.base import ChatModel, ModelReplyError
from agents.runtime.run import Run, runs_root

PROMPT = "you> "
APPROVAL_PROMPT = "approve? [y]es / [e]dit / [n]o > "
APPROVAL_PROMPT_CLIPPED = "approve? [y]es / [v]iew all arguments (the panel shows part) / [e]dit / [n]o > "


class SessionEnd(Exception):
    """The user closed the input (Ctrl-D) while the session waited for an answer."""


@contextmanager
def ctrl_c_interrupts() -> Iterator[None]:
    """Ctrl-C raises ``KeyboardInterrupt`` while the session runs, however the chat was started.

    A program started with SIGINT ignored (a background job of a non-interactive shell, some CI runners and
    launch wrappers) keeps it ignored across exec, and Python then installs no handler of its own: Ctrl-C would
    neither cancel a running tool nor clear the prompt line. The previous handler is restored afterwards.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if previous is not None:  # None: a handler not set from Python, which cannot be put back
            signal.signal(signal.SIGINT, previous)


class ChatSession:
    """One thread of conversation on the chat graph, stored in ``run`` (thread id = run id)."""

    def __init__(self, run: Run, model: ChatModel, toolbox: Toolbox, config: ChatConfig, system_prompt: str,
                 *, api_base: str | None = None, console: Any = None):
        self.run, self.config, self.toolbox, self.api_base = run, config, toolbox, api_base
        self.system_prompt = system_prompt
        self.console = console or make_console()
        self.model: ChatModel = AccountedModel(model, run)
        self.printer = TokenPrinter()
        self.policy = ApprovalPolicy(config)
        self.env = ChatEnv(model=lambda: self.model, tools=toolbox.tools, policy=self.policy, emit=run.emit,
                           on_token=self.printer, result_chars=config.result_chars)
        self.graph = build_chat_graph(self.env).compile(checkpointer=run.checkpointer())
        self.thread = {"configurable": {"thread_id": run.id}, "recursion_limit": config.max_steps * 3}
        self.commands: dict[str, Any] = {}
        self.background: list[Any] = []
        self.reader = LineReader(self.completions, runs_root() / ".chat_history")

    def completions(self) -> list[str]:
        """What Tab completes at the prompt: slash commands and tool names."""
        from agents.chat.commands import COMMANDS

        return [f"/{name}" for name in {**COMMANDS, **self.commands}] + sorted(self.toolbox.tools)

    def set_model(self, model: ChatModel) -> None:
        self.model = AccountedModel(model, self.run)
        self.run.update_meta(model=model.name)

    def messages(self) -> list[dict[str, Any]]:
        return list(self.graph.get_state(self.thread).values.get("messages") or [])

    def say(self, *items: Any) -> None:
        self.console.print(*items, markup=False)

    # --- the loop -------------------------------------------------------------------------------
    def loop(self) -> None:
        """Read lines until /exit or Ctrl-D; Ctrl-C at the prompt only clears the line, during a turn it cancels."""
        relaxed = self.policy.relaxed(self.toolbox.tools.values())
        if relaxed:  # an agentkiln.toml in a cloned repository could set this: say so before anything runs
            source = config_file()
            self.say(f"note: {', '.join(relaxed)} run without asking for approval (--yes or the chat policy"
                     + (f" in {source.resolve()})" if source else ")"))
        with ctrl_c_interrupts():
            self.converse()

    def converse(self) -> None:
        from agents.chat.commands import dispatch

        self.show_thread()
        try:
            self.resume_pending()
            while True:
                try:
                    line = self.reader.read(PROMPT).strip()
                except KeyboardInterrupt:
                    self.say("")
                    continue
                except EOFError:
                    break
                if line.startswith("/"):
                    if not dispatch(self, line):
                        break
                elif line:
                    self.send(line)
        except SessionEnd:
            self.say(f"left thread {self.run.id} waiting for an answer; continue with: agent chat --thread {self.run.id}")
            return
        self.say(f"thread {self.run.id} saved; continue with: agent chat --thread {self.run.id}")

    def show_thread(self) -> None:
        history = [m for m in self.messages() if m.get("role") in ("user", "assistant") and m.get("content")]
        if not history:
            self.say(f"thread {self.run.id} · model {self.model.name} · /help for commands")
            return
        self.say(f"resumed thread {self.run.id} ({len(self.messages())} messages) · model {self.model.name}")
        for message in history[-4:]:
            self.say(plain(f"  {message['role']}: {clip(str(message['content']), 3)}"))

    def send(self, text: str) -> None:
        """One user turn."""
        first = [] if self.messages() else [{"role": "system", "content": self.system_prompt}]
        self.run.emit("chat.user", chars=len(text))
        before = copy.copy(self.run.totals)
        self.turn({"messages": first + [{"role": "user", "content": text}]})
        spent = self.run.totals.since(before)
        if spent.calls:
            self.say(usage_line(spent, self.run.totals, self.model.name))

    def resume_pending(self) -> None:
        """A thread left at an approval (or in the middle of a turn) continues where it stopped."""
        snapshot = self.graph.get_state(self.thread)
        interrupts = [item for task in snapshot.tasks for item in task.interrupts]
        if interrupts:
            from langgraph.types import Command

            self.say("this thread was waiting for your approval:")
            self.turn(Command(resume=self.ask(interrupts[0].value)))
        elif snapshot.next:
            self.say(f"continuing the unfinished turn ({', '.join(snapshot.next)})")
            self.turn(None)

    def turn(self, graph_input: Any) -> None:
        """Run the graph until the turn ends, answering each approval interrupt on the way."""
        from langgraph.errors import GraphRecursionError
        from langgraph.types import Command

        try:
            while True:
                interrupts = self.stream(graph_input)
                if not interrupts:
                    return
                graph_input = Command(resume=self.ask(interrupts[0].value))
        except KeyboardInterrupt:
            self.printer.finish()
            self.cancel_running_tools()
        except GraphRecursionError:
            self.printer.finish()
            self.say(f"stopped: more than {self.config.max_steps} steps in one turn")
        except (UserError, ModelReplyError) as error:
            self.printer.finish()
            self.say(f"error: {' '.join(str(error).split())}")
            self.say("the session goes on: send another message, /model NAME to switch models, /undo to drop yours")

    def stream(self, graph_input: Any) -> list[Any]:
        for chunk in self.graph.stream(graph_input, self.thread, stream_mode="updates"):
            if "__interrupt__" in chunk:
                self.printer.finish()
                return list(chunk["__interrupt__"])
            for node, update in chunk.items():
                self.render(node, update or {})
        self.printer.finish()
        return []

    def render(self, node: str, update: dict[str, Any]) -> None:
        if node == "agent":
            self.printer.finish()
            for call in pending_calls(update):
                mode = self.policy.mode(self.toolbox.tools.get(call["name"]))
                if mode != "ask":
                    group = getattr(self.toolbox.tools.get(call["name"]), "group", "?")
                    self.say(call_panel(call["name"], group, call["arguments"],
                                        "runs at once" if mode == "auto" else "denied by policy"))
        elif node == "tools":
            for message in update.get("messages") or []:
                self.say(result_panel(message.get("name", "tool"), message["content"]))

    # --- approval and cancellation --------------------------------------------------------------
    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Show a pending call and return the user's decision (approve, edit with new arguments, reject)."""
        self.say(call_panel(request["name"], request["group"], request["arguments"],
                            f"approval needed: {request['reason']}"))
        whole = arguments_text(request["arguments"])
        prompt = APPROVAL_PROMPT_CLIPPED if clipped(whole) else APPROVAL_PROMPT
        while True:
            try:
                answer = self.reader.read(prompt, complete=False).strip().lower()
                if answer in ("y", "yes"):
                    return {"action": "approve"}
                if answer in ("v", "view"):
                    self.say(plain(whole))
                    continue
                if answer in ("n", "no"):
                    return {"action": "reject", "reason": self.reader.read("reason (optional) > ", complete=False).strip() or "rejected"}
                if answer in ("e", "edit"):
                    edited = self.read_arguments()
                    if edited is not None:
                        return {"action": "edit", "arguments": edited}
            except KeyboardInterrupt:
                self.say("")
                return {"action": "reject", "reason": "Ctrl-C at the approval prompt"}
            except EOFError:
                raise SessionEnd from None

    def read_arguments(self) -> dict[str, Any] | None:
        text = self.reader.read("arguments as a JSON object > ", complete=False)
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            self.say(f"not JSON: {error}")
            return None
        if not isinstance(value, dict):
            self.say("the arguments must be a JSON object")
            return None
        return value

    def cancel_running_tools(self) -> None:
        """After Ctrl-C: calls that were running are recorded as cancelled; the session goes on."""
        snapshot = self.graph.get_state(self.thread)
        if "tools" in snapshot.next:
            cancelled = [{"role": "tool", "tool_call_id": call["id"], "name": call["name"], "content": CANCELLED_TEXT}
                         for call in pending_calls(snapshot.values)]
            self.graph.update_state(self.thread, {"messages": cancelled, "decisions": [], "cancelled": True},
                                    as_node="tools")
        self.run.emit("chat.cancelled", pending=list(snapshot.next))
        self.say("cancelled; the session goes on")
