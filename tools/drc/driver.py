"""The Ruby driver that runs inside one klayout process and evaluates many (deck, layout) jobs.

Each job is one line of a tab-separated list: deck path, input GDS path, output report path.
Every job runs in a fresh DRC engine inside ``begin``/``rescue`` and a per-job Ruby timeout, so one
failing deck costs one job, not the batch; a deck that timed out once is not run on its later layouts. The driver prints one marker line per job.
"""

from __future__ import annotations

MARKER = "@@DRC"

RUBY_DRIVER = r'''
require 'timeout'
# The DRC engine runs two full garbage collections per deck run (~0.1 s each); run one every
# $gc_every jobs instead, which makes a job several times faster.
$skip_gc = false
class << GC
  alias_method :agentkiln_full_start, :start
  def start(*args, **options)
    $skip_gc ? nil : agentkiln_full_start(*args, **options)
  end
end
gc_every = ($gc_every || "100").to_i
$skip_gc = true
decks = {}
timed_out = {}
limit = ($job_timeout || "20").to_f
File.readlines($jobs).each_with_index do |line, index|
  deck_path, input_path, output_path = line.chomp.split("\t")
  decks[deck_path] ||= File.read(deck_path)
  $input = input_path
  $output = output_path
  started = Time.now
  if timed_out[deck_path]
    $stdout.puts "@@DRC #{index} 0.0000 TIMEOUT not run: this deck timed out on an earlier layout"
    $stdout.flush
    next
  end
  begin
    engine = DRC::DRCEngine.new
    engine._start("deck")
    Timeout.timeout(limit) do
      begin
        engine.instance_eval(decks[deck_path], "deck.drc")
        engine._flush
      ensure
        engine._finish
      end
    end
    status = "OK"
  rescue Timeout::Error
    timed_out[deck_path] = true
    status = "TIMEOUT per-layout limit of #{limit} s exceeded"
  rescue Exception => error
    message = error.message.to_s.gsub(/\s+/, " ")[0, 400]
    status = "ERR #{error.class}: #{message}"
  end
  $stdout.puts "@@DRC #{index} #{format('%.4f', Time.now - started)} #{status}"
  $stdout.flush
  GC.agentkiln_full_start if (index + 1) % gc_every == 0
end
'''
